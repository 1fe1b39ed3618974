/* siminput.c - ffsim's field or map; see siminput.h. */
#include "siminput.h"

#include <string.h>

#include "fieldsel.h"
#include "infile.h"
#include "mapopts.h"
#include "mapread.h"

ff_status ff_sim_input_read(const char *path, const char *name, uint64_t max_cells,
                            ff_field *out, int *is_map, ff_error *err)
{
    FILE *in = ff_infile_open(path, err);
    ff_status st;

    ff_field_init(out);
    *is_map = 0;
    if (!in)
        return err->status;
    if (ff_map_sniff(in)) {
        ff_map_options opt;
        ff_map_options_init(&opt);
        opt.max_cells = max_cells;
        opt.path = in == stdin ? NULL : path;
        *is_map = 1;
        st = ff_map_read(in, path, &opt, &out->grid, err);
        ff_infile_close(in);
        if (st != FF_OK)
            ff_field_free(out);
        return st;
    }
    {
        ff_reader reader;
        ff_reader_init(&reader, in, path);
        reader.max_cells = max_cells;
        st = ff_field_select(&reader, name, out, err);
    }
    ff_infile_close(in);
    if (st == FF_OK && out->any_angle && !ff_field_vectors(out)) {
        ff_field_free(out);
        return ff_error_set(err, FF_EINPUT, path, 0, 0,
                            "an any-angle field without its vector channel: run ffdir first");
    }
    if (st == FF_OK && !out->any_angle && !out->direction) {
        ff_field_free(out);
        return ff_error_set(err, FF_EINPUT, path, 0, 0,
                            "the stream has no direction channel: run ffdir first");
    }
    return st;
}

ff_status ff_sim_input_check_goals(const ff_scenario *s, const ff_grid *map, const char *path,
                                   ff_error *err)
{
    size_t k;

    if (map->ngoals > 0)
        return FF_OK;
    for (k = 0; k < s->nagents; k++) {
        const ff_agent_spec *a = &s->agent[k];
        if (a->goal >= 0 || a->spawn_tick > s->ticks || s->cls[a->cls].ngoals > 0)
            continue;
        return ff_error_set(err, FF_EINPUT, path, 0, 0,
                            "a map without goals, and class %s has none, nor agent %u a goal "
                            "of its own: give them goals (ffsim(5)), or build a field with "
                            "ffbuild -g X,Y and ffdir",
                            s->cls[a->cls].name, (unsigned)a->id);
    }
    return FF_OK;
}
