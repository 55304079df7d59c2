#!/bin/sh
# Usage: end-mid-write.sh SIGNAL COMMAND...  Starts COMMAND (a gsync-rewrite
# run whose -o is a FIFO no one reads) in the current directory, waits
# until it has staged its temporary files (.gsync-tmp.*), sends it SIGNAL
# and prints what it saw:
#   staged: N temporary files
#   ended by signal SIGNAL | exit N | still running
#   left: the directory's entries, sorted, on one line
# The command starts with every signal at its default action: a
# background command of a shell without job control ignores SIGINT, and
# one under nohup SIGHUP, and gsync-rewrite leaves an ignored signal so.
sig=$1
shift
env --default-signal "$@" 2>/dev/null &
pid=$!
staged() { ls -A | grep -c '^\.gsync-tmp\.'; }
n=0
# Up to 60 s: a sanitizer build under load parses slowly.
while [ "$(staged)" -lt 2 ] && [ $n -lt 600 ]; do
  sleep 0.1
  n=$((n + 1))
done
echo "staged: $(staged) temporary files"
sleep 0.2
kill -s "$sig" $pid
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 100 ]; do
  sleep 0.1
  n=$((n + 1))
done
if kill -0 $pid 2>/dev/null; then
  echo "still running"
  kill -s KILL $pid
fi
wait $pid
status=$?
if [ $status -gt 128 ]; then
  echo "ended by signal $(kill -l $((status - 128)))"
else
  echo "exit $status"
fi
echo "left: $(ls -A | sort | tr '\n' ' ' | sed 's/ $//')"
