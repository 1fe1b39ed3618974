# The same jobs spread over machines that have fftools installed
# (make install): HOSTS=build1,build2,: sh bake-spread.sh
# Each host gets the map and its sets, and sends the fields back; ':' is
# this machine, the default.
mkdir -p fields
parallel --sshlogin "${HOSTS:-:}" --transferfile {} --transferfile {.}.sets \
    --return fields/{/.}.ff --cleanup \
    'mkdir -p fields && ffbuild -j 1 --goal-sets {.}.sets -o fields/{/.}.dist {} &&
     ffdir -o fields/{/.}.ff fields/{/.}.dist && rm fields/{/.}.dist' ::: maps/*.map
