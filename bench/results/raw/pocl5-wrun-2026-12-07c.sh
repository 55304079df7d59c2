# wrun.sh: each variant of seeds 6178 and 6213 through wgc on PoCL.
O1="-I. -cl-std=CL1.2 -Dgsync_clock_hz=2600000000ul"
one() { d=$1 f=$2 o=$3 tag=$4
  case $d in s6178) l=4x1x1 g=17 kn=2,124 ;; s6213) l=8x2 g=1 kn=1,16 ;; esac
  r=$(cd $d && timeout -k 5 80 ../wgc $f.cl $l $g $kn "$o" 2>err.$f.$tag; echo " (status $?)")
  echo "$d $f $tag: $(echo $r) $(grep -o 'Assertion.\{0,60\}' $d/err.$f.$tag | head -1)"
}
for d in s6178 s6213; do
  one $d disc "$O1" libgsync-opts &
  one $d disc "-I. -cl-std=CL1.2" no-clock-hz &
  one $d disc "-I." no-std-no-clock-hz &
  one $d noanchor "$O1" libgsync-opts &
  one $d noroute "$O1" libgsync-opts &
  one $d spin0 "$O1" libgsync-opts &
  one $d nd "$O1 -Dgsync_fit_probe" libgsync-opts &
done
wait
