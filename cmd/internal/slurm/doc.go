// Package slurm writes and submits the Slurm array jobs of ignn's
// commands: one task per part, each running the same ignn binary, which
// finds its part with --shard auto (SLURM_ARRAY_TASK_ID).
//
// ArrayJob is the one writer: compare --slurm (the grid's shards), embed
// --slurm (the embedding's parts) and prepare --slurm (the BFS stage parts)
// fill it with their own command line, size and log directory, and Script
// renders the sbatch file. Submit hands it to sbatch. The package reads no
// configuration of a run; the commands decide what each task runs.
package slurm
