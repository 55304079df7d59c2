# The commands behind the run-test, harden and stress results of
# 2026-11-28 (second session), on the GPU machine (it came with an NVIDIA
# H200 and PoCL 5 on 16 cores), after `sh test/gpu/prepare.sh` here:
#   . .gpu/on-gpu.sh; STEPS="tests bench" TEST_BUDGET=150 BENCH_LIMIT=170 bash test/gpu/all.sh
#   (carried: .gpu build/gpu-kernels build/gpu-lib build/test/run/gsync-run build/test/run/libgsync-misuse;
#    the barrier benchmark's binary was not carried, so bench/run-gpu.sh ran only grid.sync() and the stress tests)
# -> gpu-run-nvidia-h200-2026-11-28.txt (243 passed, 0 failed),
#    gpu-run-pocl5-h200-host-2026-11-28.txt (149 passed, 0 failed, 104 over the budget),
#    harden-h200-2026-11-28.txt (misuse table incl. the launch errors: 0 failed on both).
# The constraints loader fuzzed there (fuzz/README.md, run 4):
#   . .gpu/on-gpu.sh; cd .gpu/fuzz; ./constraints-fuzzer -jobs=15 -workers=15 -max_total_time=500 -timeout=30 \
#     -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=2 -max_len=32768 -dict=constraints.dict -artifact_prefix=art/ new corpus
#   (.gpu/fuzz: build-fuzz/fuzz/constraints-fuzzer, fuzz/corpus-constraints, fuzz/constraints.dict)
