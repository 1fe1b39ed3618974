# Bake every map of maps/: fields/NAME.ff holds one field, with directions,
# per goal set of maps/NAME.sets.  Run: make -j2 -f bake.mk
MAPS = $(wildcard maps/*.map)

all: $(MAPS:maps/%.map=fields/%.ff)

# The distances: the map read once, one field per set (make deletes this
# intermediate file when fields/NAME.ff is made).
fields/%.dist: maps/%.map maps/%.sets
	@mkdir -p fields
	ffbuild -j 1 --goal-sets maps/$*.sets -o $@ $<

# The directions, field by field; the names are kept.
fields/%.ff: fields/%.dist
	ffdir -o $@ $<
