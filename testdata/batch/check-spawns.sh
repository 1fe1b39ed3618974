# CI: fail when a spawn of any map of maps/ cannot reach the map's goal.
# maps/NAME.goals holds the goal cells, maps/NAME.spawns the spawn cells.
field=$(mktemp) || exit 2
trap 'rm -f "$field" "$field.bad"' EXIT
status=0
for map in maps/*.map; do
    base=${map%.map}
    ffbuild --goals "$base.goals" "$map" | ffdir -o "$field" || exit 2
    ffquery --check "$field" <"$base.spawns" >"$field.bad"
    case $? in
    0) ;;
    1) sed "s|^|$map: spawn cannot reach the goal: |" "$field.bad"; status=1 ;;
    *) exit 2 ;;
    esac
done
exit $status
