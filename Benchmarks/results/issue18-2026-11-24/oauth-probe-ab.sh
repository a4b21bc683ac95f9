#!/usr/bin/env bash
# Binaries are copies in /tmp/speed-bin/NAME: base = main 1531aac; step1 = the partial indexes and no refresh CTE (2feb74c without the secret-digest change); step2 = 61b0d8e; step3 = a85c691.
# speed-ab.sh OUT binA binB [rounds]: alternates the probe between two binaries, quieted
out=$1; a=$2; b=$3; n=${4:-3}
( for i in $(seq $n); do for bin in $a $b; do
    BIN=/tmp/speed-bin/$bin ROOT=/work/wt/speed bash /tmp/speed-probe.sh 2>&1 | grep -E '^(get|create|introspect|token) ' | sed "s/^/$bin /"
  done; done ) > $out &
pid=$!
/work/notes/quiet-wt.sh $pid
wait $pid
sort -k2,2 -s $out | awk '{print}'
