# The device calls of the session of 2026-12-07 (b).
# Call 1 is raw/commands-2026-12-07a.sh's call 1 as it stands (.gpu/call1.sh),
# run with build/diff-late.tgz and .gpu/routed.txt made as its head says.
# Its files: raw/*-2026-12-07b-call1.txt.
#
# Call 2 finishes call 1's replays (which ran out of time): .gpu/nv-rest.txt
# is the 143 late seeds that NVIDIA's replay did not reach, .gpu/portable-rest.txt
# the 106 routed seeds that PoCL 5.0's replay did not reach or whose reference
# gave no output (.gpu/portable-failed.txt, run first), with replay.py saying
# why a run gave no result line:
#   grep -o 'seed [0-9]*' raw/replay-late-nvidia-2026-12-07b-call1.txt | awk '{print $2}' | sort > /tmp/nv-done
#   ls /tmp/dl/late | sed 's/seed//' | sort | comm -23 - /tmp/nv-done > .gpu/nv-rest.txt
#   grep -o '^OK seed [0-9]*\|^INPUT seed [0-9]*' raw/replay-late-portable-2026-12-07b-call1.txt | awk '{print $3}' | sort > /tmp/pd
#   sort .gpu/routed.txt | comm -23 - /tmp/pd > .gpu/portable-rest.txt
#   grep '^FAIL' raw/replay-late-portable-2026-12-07b-call1.txt | grep -o 'seed [0-9]*' | awk '{print $2}' > .gpu/portable-failed.txt
# run as "timeout -k 10 300 bash .gpu/call2.sh" (never ran: no machine came):

set -u
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
mkdir -p /tmp/d && tar xzf build/diff-late.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
mkdir -p /tmp/d/nv /tmp/d/po
for s in $(cat .gpu/nv-rest.txt); do ln -sfn /tmp/d/late/seed$s /tmp/d/nv/seed$s; done
# the seeds whose reference gave no output first (their names sort first)
for s in $(cat .gpu/portable-rest.txt); do
  if grep -qx $s .gpu/portable-failed.txt; then n=a$s; else n=b$s; fi
  ln -sfn /tmp/d/late/seed$s /tmp/d/po/$n; done
timeout -k 5 280 python3 test/differential/replay.py run --host "$H" --platform Portable --jobs 11 --timeout 150 /tmp/d/po > $OUT/replay-late-portable.txt 2>&1 &
timeout -k 5 150 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 5 --timeout 60 /tmp/d/nv > $OUT/replay-late-nvidia.txt 2>&1
el "nvidia replay rc=$?"
wait
el "portable rc=$?"
tail -1 $OUT/replay-late-nvidia.txt; grep -v "^OK\|^REFUSED" $OUT/replay-late-nvidia.txt | head
awk '{print $1}' $OUT/replay-late-portable.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $OUT/replay-late-portable.txt | head -20
