# The commands behind the files *-2026-12-06.txt (main at 319d6d9), on the
# GPU machine (NVIDIA H100 80GB HBM3, PoCL 5 on 16 cores), after
# `sh ../shared/gpu/prepare.sh && sh test/gpu/prepare.sh` here and removing
# the lit outputs (build/test/*/Output) so that "build" fits the carry:
#   carried: .gpu build
. .gpu/on-gpu.sh; TEST_BUDGET=150 BENCH_LIMIT=170 timeout -k 5 570 bash test/gpu/all.sh
