import { runShard } from './shard';

runShard(2, 4);
