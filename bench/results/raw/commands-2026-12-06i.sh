# Device calls of the ninth session of 2026-12-06 (i). Each ran from the
# repository root with .gpu and build carried, after
# sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh; bash bench/body-cost.sh prepare.

# ---- call 1 (gpu1.sh, the tool at f0efa33): test/gpu/run.sh on NVIDIA
# 251 passed, 0 failed (gpu-run-NVIDIA-2026-12-06i-call1.txt); the late
# jumps' table (--all) on NVIDIA 61/61 at both levels, on PoCL 5.0 61/61
# optimised and 59/61 at -cl-opt-disable (return_in_case,
# return_in_bare_case wrong: late-jumps-*-2026-12-06i-call1.txt); the warned
# shapes NVIDIA 3/3 right, PoCL 5.0 1/3 at each level. The script then hung
# in its 'wait' until the call's limit: the 'exec > >(tee ...)' process
# substitution is a child that bash's 'wait' waits for too, so its xpx part
# never ran (later calls write the report with a plain redirection).
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
(PLATFORMS=NVIDIA BUDGET=150 timeout -k 5 190 bash test/gpu/run.sh >/dev/null 2>&1) &
for p in Portable NVIDIA; do
  timeout -k 5 150 python3 test/pocl/gen-late-jumps.py --all --host build/test/gsync-arrays \
    --platform $p --timeout 90 --work build/gpu-kernels/late-jumps > $OUT/late-jumps-$p.txt 2>&1
  timeout -k 5 60 python3 test/pocl/gen-late-jumps.py --warned --host build/test/gsync-arrays \
    --platform $p --timeout 45 --work build/gpu-kernels/late-warned > $OUT/late-warned-$p.txt 2>&1
done
wait   # hung here: see above

# ---- call 2 (gpu2.sh; call2-h100-2026-12-06i.txt): what PoCL 5.0 gets
# wrong at -cl-opt-disable. build/exp/rc.cl is the table's group_sum and
# its three switch shapes (late-jumps.cl of gen-late-jumps.py --prepare:
# lines 1-10 and 1243-1335), rewritten by the tool of f0efa33 into t.cl
# (and --no-discovery into nd.cl); v1-v8 are t.cl with only
# visit_return_in_case changed, each sealed with
# 'python3 test/utils/fingerprint.py --seal vN.cl vN.json':
#   v1  the reset 'gsync_jump = gsync_jump == 2 ? 0 : gsync_jump;' written
#       'if (gsync_jump == 2) gsync_jump = 0;'
#   v2  'volatile int gsync_jump'
#   v3  no gsync_anchor_here() in the function
#   v4  no reset; the guard after the switch reads 'gsync_jump != 1'
#   v5  'break;' after the label gsync_return_2 (no fall-through into default:)
#   v6  the flag's stores 'gsync_jump = 1 | (int)(get_local_id(0) & 0u)' (and 2)
#   v7  no anchor after the reset
#   v8  the reset written 'gsync_jump *= gsync_jump != 2;'
# build/body-kernels/xpxnat.cl is xpx.cl (discovery) with its two j loops
# on get_global_id(0) / get_global_size(0), sealed the same way.
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
E=build/exp
arr() { # arr PLATFORM CL OPTIONS KERNELS...
  local p=$1 f=$2 o=$3; shift 3
  timeout -k 3 90 build/test/gsync-arrays --platform $p --cl $f --constraints ${f%.cl}.json \
    --groups 3 --local 4 --arrays 7,28,28,28,7 --input 4:$E/skip.bin --local-words 4 --options "$o" "$@" 2>&1 | tail -16
  echo "rc=$?"
}
for v in t nd v1 v2 v3 v4 v5 v6 v7 v8; do
  for o in -cl-opt-disable ""; do
    [ -z "$o" ] && [ $v != t ] && [ $v != nd ] && continue
    echo "=== $v ${o:-optimised}"; arr Portable $E/$v.cl "$o" k_return_in_case k_return_in_bare_case k_break_in_case
  done
done
echo "=== table -cl-opt-disable"; arr Portable build/gpu-kernels/late-jumps/out.cl -cl-opt-disable k_return_in_case k_return_in_bare_case
export GSYNC_PLATFORM=NVIDIA
K=build/body-kernels
one() { timeout -k 3 30 build/test/run/gsync-run --scenario xpx --cl $K/$1.cl --constraints $K/$1.json \
  --groups 132 --local 256 --time --min-participants 132 --launches 9 --rounds $2 2>&1 |
  sed -n 's/^time: .* fastest \([0-9]*\) us$/\1/p'; }
for v in xpx xpx.nd xpxnat; do one $v 200 >/dev/null; done
for r in 1 2 3; do for v in xpx xpx.nd xpxnat; do for n in 200 400; do
  echo "XPX $v $n $(one $v $n)"; done; done; done

# ---- call 3: the late jumps' table (--all) with the new reset
# ('gsync_jump *= gsync_jump != K;', commit "Late jumps: reset the flag
# with arithmetic"), rewritten by test/gpu/prepare.sh's step, on PoCL 5.0
# and NVIDIA. Not run: five tries between 22:50 and 23:25 got no machine,
# and the session's device time ran out.
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
for p in Portable NVIDIA; do
  timeout -k 5 110 python3 test/pocl/gen-late-jumps.py --all --host build/test/gsync-arrays \
    --platform $p --timeout 90 --work build/gpu-kernels/late-jumps > $OUT/late-jumps-$p.txt 2>&1
done
