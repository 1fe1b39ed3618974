# Bake every map of maps/ with GNU parallel, one job per core.
mkdir -p fields
parallel 'ffbuild -j 1 --goal-sets {.}.sets -o fields/{/.}.dist {} &&
          ffdir -o fields/{/.}.ff fields/{/.}.dist && rm fields/{/.}.dist' ::: maps/*.map
