# The commands behind the figures of 2026-11-28 in docs/pocl.md, sections 6 and 7.
# PoCL 3.1 campaign (this 2-core machine), stopped by hand after 367 seeds:
#   python3 test/differential/campaign.py --tool build/tool/gsync-rewrite --work W --log differential-pocl31-campaign-2026-11-28.log \
#     --first 1000 --seeds 1000 --jobs 2 --budget 8400 --seed-timeout 1500 --variants disc --truth test/differential/truth-nvidia.txt
#   (the ...-before-fresh-ids.log is the same command with the tool of a0f867e, seeds 1000-1120)
# PoCL 5.0 replay on the GPU machine (differential-pocl5-2026-11-28.txt):
#   python3 test/differential/replay.py prepare --tool build/tool/gsync-rewrite --out .gpu/seeds $(seq 1000 1199) \
#     --kernel test/differential/kernels/{loops,first-item,jacobi,corner-3d,worklist-bfs}.cl
#   there: POCL_MAX_PTHREAD_COUNT=2 python3 test/differential/replay.py run --host gsync-diffhost --platform Portable --jobs 12 --timeout 240 .gpu/seeds
# The work-list BFS (worklist-bfs.cl, and a copy with the barrier before work-item 0's next chunk deleted, as Chai's kernels are):
#   replay.py prepare --out .gpu/bfs --kernel worklist-bfs.cl --kernel worklist-racy.cl; there: replay.py run --platform NVIDIA,
#   12 times replay.py run --platform Portable (16 threads), then every ref/disc/nd2 build at -O2 and -cl-opt-disable through
#   gsync-diffhost, 8 rounds (7 finished in the call: worklist-bfs-builds-pocl5-2026-11-28.txt, columns round, case, options, results)
