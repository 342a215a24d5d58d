import { runShard } from './shard';

runShard(3, 4);
