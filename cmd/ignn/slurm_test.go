package main

import "testing"

// TestArrayScripts: compare, embed and prepare --slurm write their array
// jobs through one writer (arrayJob), the same scripts as before it (the
// wants are the three writers' output at 90e4cb9).
func TestArrayScripts(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{slurmScript("/bin/ignn", "/shared/run", 4, 2, 1234, []string{"--partition=gpu"}),
			"#!/bin/bash\n# Written by ignn compare --slurm: 4 array tasks share the grid in /shared/run.\n#SBATCH --job-name=ignn-grid\n#SBATCH --array=0-3\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=1234M\n#SBATCH --output=/shared/run/logs/%A_%a.out\n#SBATCH --partition=gpu\nexec \"/bin/ignn\" compare --grid \"/shared/run/grid.yaml\" --out \"/shared/run\" --workers 2 --shard auto --quiet\n"},
		{embedScript("/bin/ignn", "/shared/ck", "/shared/z.npy", "/shared/prep", 3, 4000, 555, nil),
			"#!/bin/bash\n# Written by ignn embed --slurm: 3 array tasks compute the parts of /shared/z.npy.\n#SBATCH --job-name=ignn-embed\n#SBATCH --array=0-2\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=555M\n#SBATCH --output=/shared/z.logs/%A_%a.out\nexec \"/bin/ignn\" embed --checkpoint \"/shared/ck\" --out \"/shared/z.npy\" --shard auto --slots 4000 --prepared \"/shared/prep\"\n"},
		{embedScript("/bin/ignn", "/shared/ck", "/shared/z.npy", "", 3, 0, 555, []string{"--time=1:00:00"}),
			"#!/bin/bash\n# Written by ignn embed --slurm: 3 array tasks compute the parts of /shared/z.npy.\n#SBATCH --job-name=ignn-embed\n#SBATCH --array=0-2\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=555M\n#SBATCH --output=/shared/z.logs/%A_%a.out\n#SBATCH --time=1:00:00\nexec \"/bin/ignn\" embed --checkpoint \"/shared/ck\" --out \"/shared/z.npy\" --shard auto --slots 0\n"},
		{prepareScript("/bin/ig nn", "/shared/p", []string{"--dataset", "it's.csv"}, 5, 777, []string{"--partition=big"}),
			"#!/bin/bash\n# Written by ignn prepare --slurm: 5 array tasks compute the BFS stage parts in /shared/p.\n#SBATCH --job-name=ignn-prepare\n#SBATCH --array=0-4\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=777M\n#SBATCH --output=/shared/p/logs/%A_%a.out\n#SBATCH --partition=big\nexec '/bin/ig nn' prepare '--dataset' 'it'\\''s.csv' --out '/shared/p' --shard auto\n"},
	} {
		if c.got != c.want {
			t.Errorf("script:\n%s\nwant:\n%s", c.got, c.want)
		}
	}
}
