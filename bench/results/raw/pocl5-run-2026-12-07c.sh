# run.sh HOST: each output variant of each seed dir, built as libgsync builds
# it (and disc at -cl-opt-disable), on PoCL; one line each.
H=$1
one() { d=$1 v=$2 o=$3
  g=17; [ $v = nd ] && g=1; grep -q '"guarded": true' $d/meta.json && g=1
  l=$(sed 's/.*"local": \[\([0-9, ]*\)\].*/\1/; s/, /x/g' $d/meta.json)
  c="--constraints $v.json"
  # edited outputs (and discraw, their control) are built without libgsync:
  # a build that PoCL survives then fails to launch (the state argument)
  case $v in noanchor|noroute|discraw) c= ;; esac
  r=$(cd $d && timeout -k 5 100 $H --platform Portable --cl $v.cl $c --input input.bin --groups $g --local $l --options "-I. $o" 2>err.$v$o.txt | tail -1)
  echo "$d $v [$o] ${r:-none: $(tail -c 150 $d/err.$v$o.txt | tr '\n' ' ')}"
}
for d in s*; do
  for v in disc nd b-flip b-atomic-or b-volatile b-gen b-acq-rel noanchor noroute discraw; do
    [ -f $d/$v.cl ] && one $d $v "" &
  done
  one $d disc -cl-opt-disable &
done
wait
