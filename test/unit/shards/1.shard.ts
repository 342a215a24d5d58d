import { runShard } from './shard';

runShard(0, 4);
