import { runShard } from './shard';

runShard(1, 4);
