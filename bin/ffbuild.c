/* ffbuild - the distance field of a map: cost to the nearest goal from
 * every cell (man 1 ffbuild). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/mapread.h"
#include "../lib/options.h"
#include "../lib/outfile.h"
#include "../lib/records.h"
#include "../lib/search.h"
#include "../lib/stream.h"

static const char *prog = "ffbuild";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffbuild [-g X,Y]... [--goals FILE] [-m 4|8] [-c strict|cut|free]\n"
            "               [-r R] [--png-scale S] [--max-cells N] [--text] [-o FILE] [MAP]\n"
            "Build the distance field (cost to the nearest goal) of a Moving AI map,\n"
            "an ffmap, a grey PNG or an ff stream, and write it as an ff stream.\n"
            "  -g, --goal X,Y       a goal cell (repeatable; replaces the map's goal tiles)\n"
            "      --goals FILE     goal cells, one 'x y' a line\n"
            "  -m, --moves 4|8      move set (default 8)\n"
            "  -c, --corners RULE   diagonal rule: strict, cut or free (default strict)\n"
            "  -r, --radius R       agent clearance radius in world units (default 0)\n"
            "      --png-scale S    cost per grey level of a PNG map (default 1)\n"
            "      --max-cells N    refuse maps of more cells (default 1073741824)\n"
            "      --text           write the text encoding\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

static int fail(const ff_error *err)
{
    ff_error_print(stderr, prog, err);
    return ff_exit_status(err->status);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see ffbuild --help)\n");
    return 2;
}

/* Goals given on the command line, applied after the map is read. */
typedef struct {
    long long *xy;
    size_t n;
} goal_list;

static int goal_push(goal_list *l, long long x, long long y)
{
    long long *p = realloc(l->xy, (l->n + 1) * 2 * sizeof *p);
    if (!p)
        return -1;
    l->xy = p;
    p[2 * l->n] = x;
    p[2 * l->n + 1] = y;
    l->n++;
    return 0;
}

static ff_status read_goal_file(const char *path, ff_grid *g, ff_error *err)
{
    FILE *f = fopen(path, "r");
    ff_records rec;
    double v[2];
    int n;
    ff_status st;

    if (!f)
        return ff_error_set(err, FF_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    ff_records_init(&rec, f, path);
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        if (v[0] != (long long)v[0] || v[1] != (long long)v[1]) {
            st = ff_error_set(err, FF_EINPUT, path, rec.line, 0,
                              "goal %g %g is not a cell (two integers)", v[0], v[1]);
            break;
        }
        if ((st = ff_grid_add_goal(g, (int64_t)v[0], (int64_t)v[1], path, rec.line, 0, err)) != FF_OK)
            break;
    }
    fclose(f);
    return st == FF_ENOTFOUND ? FF_OK : st;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "goal", required_argument, NULL, 'g' },
        { "goals", required_argument, NULL, 'G' },
        { "moves", required_argument, NULL, 'm' },
        { "corners", required_argument, NULL, 'c' },
        { "radius", required_argument, NULL, 'r' },
        { "png-scale", required_argument, NULL, 'P' },
        { "max-cells", required_argument, NULL, 'M' },
        { "text", no_argument, NULL, 't' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    ff_map_options mopt;
    goal_list goals = { NULL, 0 };
    const char *goal_file = NULL, *out_path = NULL, *in_path = "-";
    int moves = 8, corners = FF_CORNERS_STRICT, text = 0, c, status;
    double radius = 0;
    long long x, y, v;
    ff_error err;
    ff_field field;
    ff_outfile out;
    FILE *in;
    size_t k;

    ff_map_options_init(&mopt);
    ff_error_clear(&err);
    while ((c = getopt_long(argc, argv, "g:m:c:r:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (ff_parse_cell(optarg, &x, &y) || goal_push(&goals, x, y))
                return usage_error("bad goal '%s' (want X,Y)", optarg);
            break;
        case 'G': goal_file = optarg; break;
        case 'm':
            if (ff_parse_int(optarg, 4, 8, &v) || (v != 4 && v != 8))
                return usage_error("bad --moves '%s' (4 or 8)", optarg);
            moves = (int)v;
            break;
        case 'c':
            if ((corners = ff_corners_parse(optarg)) < 0)
                return usage_error("bad --corners '%s' (strict, cut or free)", optarg);
            break;
        case 'r':
            if (ff_parse_real(optarg, &radius) || radius < 0)
                return usage_error("bad --radius '%s' (a number >= 0)", optarg);
            break;
        case 'P':
            if (ff_parse_real(optarg, &mopt.png_scale) || !(mopt.png_scale > 0))
                return usage_error("bad --png-scale '%s' (a number > 0)", optarg);
            break;
        case 'M':
            if (ff_parse_int(optarg, 1, (long long)UINT32_MAX, &v))
                return usage_error("bad --max-cells '%s' (1 to 4294967295)", optarg);
            mopt.max_cells = (uint64_t)v;
            break;
        case 't': text = 1; break;
        case 'o': out_path = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V': ff_print_version(prog); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind > 1)
        return usage_error("one map at most, got '%s' too", argv[optind + 1]);
    if (optind < argc)
        in_path = argv[optind];

    in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "rb");
    if (!in) {
        fprintf(stderr, "%s: %s: cannot open: %s\n", prog, in_path, strerror(errno));
        return 2;
    }
    ff_field_init(&field);
    status = ff_map_read(in, in_path, &mopt, &field.grid, &err);
    if (in != stdin)
        fclose(in);
    if (status != FF_OK)
        return fail(&err);
    field.grid.moves = moves;
    field.grid.corners = (ff_corners)corners;
    if (ff_grid_apply_clearance(&field.grid, radius, &err) != FF_OK)
        goto failed;
    if (goals.n > 0 || goal_file) {
        free(field.grid.goals);
        field.grid.goals = NULL;
        field.grid.ngoals = 0;
    }
    for (k = 0; k < field.grid.ngoals; k++) {
        uint32_t i = field.grid.goals[k];
        if (!ff_grid_open(&field.grid, i)) {
            ff_error_set(&err, FF_EINPUT, in_path, 0, 0,
                         "goal tile %u,%u is closed by the clearance radius %g",
                         i % (uint32_t)field.grid.w, i / (uint32_t)field.grid.w, radius);
            goto failed;
        }
    }
    for (k = 0; k < goals.n; k++)
        if (ff_grid_add_goal(&field.grid, goals.xy[2 * k], goals.xy[2 * k + 1], "-g", 0, 0,
                             &err) != FF_OK)
            goto failed;
    if (goal_file && read_goal_file(goal_file, &field.grid, &err) != FF_OK)
        goto failed;
    field.distance = malloc((size_t)field.grid.w * (size_t)field.grid.h * sizeof *field.distance);
    if (!field.distance) {
        ff_error_set(&err, FF_ENOMEM, in_path, 0, 0, "out of memory for the distance field");
        goto failed;
    }
    if (ff_search(&field.grid, field.distance, &err) != FF_OK) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", in_path);
        goto failed;
    }
    ff_field_update_ids(&field);
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed;
    if (ff_field_write(out.f, &field, text, &err) != FF_OK) {
        snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
        ff_outfile_abort(&out);
        goto failed;
    }
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed;
    ff_field_free(&field);
    free(goals.xy);
    return 0;
failed:
    ff_field_free(&field);
    free(goals.xy);
    return fail(&err);
}
