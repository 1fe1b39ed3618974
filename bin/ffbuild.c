/* ffbuild - the distance field of a map: cost to the nearest goal from
 * every cell (man 1 ffbuild); with --goal-sets, one field per goal set. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anyangle.h"
#include "batch.h"
#include "changes.h"
#include "grow.h"
#include "infile.h"
#include "mapread.h"
#include "options.h"
#include "outfile.h"
#include "progress.h"
#include "ranges.h"
#include "records.h"
#include "search.h"
#include "stream.h"
#include "turn.h"
#include "update.h"

static const char *prog = "ffbuild";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffbuild [-g X,Y]... [--goals FILE] [-m 4|8] [-c strict|cut|free]\n"
            "               [-r R] [--turn-cost C | --any-angle] [--png-scale S]\n"
            "               [--layer NAME]\n"
            "               [--max-cells N] [--name NAME] [--text] [-o FILE] [MAP]\n"
            "       ffbuild --goal-sets FILE [-j N] [--split DIR | --list] [--progress]\n"
            "               [options] [MAP]\n"
            "       ffbuild --update CHANGES [--max-cells N] [--text] [-o FILE] [FIELD]\n"
            "Build the distance field (cost to the nearest goal) of a Moving AI map,\n"
            "an ffmap, a Tiled map, a grey PNG or an ff stream, and write it as an ff\n"
            "stream.\n"
            "  -g, --goal X,Y       a goal cell (repeatable; replaces the map's goal tiles)\n"
            "      --goals FILE     goal cells, one 'x y' a line\n"
            "      --name NAME      name the field (the stream's 'name' key)\n"
            "      --goal-sets FILE one field per line 'NAME X,Y [X,Y ...]' of FILE, in its\n"
            "                       order, as one multi-field stream\n"
            "      --split DIR      with --goal-sets: write DIR/NAME.ff for each set instead\n"
            "      --list           with --goal-sets: check the sets, print their names\n"
            "  -j, --jobs N         with --goal-sets: N threads (default: online processors)\n"
            "      --progress       with --goal-sets: show the fields written on stderr\n"
            "                       (the default on a terminal)\n"
            "      --update CHANGES repair the distance stream FIELD for the changes of\n"
            "                       CHANGES ('close X0,Y0,X1,Y1', 'cost X0,Y0,X1,Y1 C' a line)\n"
            "  -m, --moves 4|8      move set (default 8)\n"
            "  -c, --corners RULE   diagonal rule: strict, cut or free (default strict)\n"
            "  -r, --radius R       agent clearance radius in world units (default 0)\n"
            "      --turn-cost C    cost of each 45-degree turn: a field over (cell,\n"
            "                       heading) states, with heading channels\n"
            "      --any-angle      exact shortest distances at any angle (one open cost)\n"
            "      --png-scale S    cost per grey level of a PNG map (default 1)\n"
            "      --layer NAME     of a Tiled map, read only the tile layer NAME\n"
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
    return ff_usage_error(prog, fmt, arg);
}

/* Goals given on the command line, applied after the map is read. */
typedef struct {
    long long *xy;
    size_t n, cap;  /* goals, and room for that many pairs */
} goal_list;

static int goal_push(goal_list *l, long long x, long long y)
{
    long long (*p)[2] = ff_grow(l->xy, &l->cap, l->n + 1, sizeof *p, 16);
    if (!p)
        return -1;
    l->xy = *p;
    l->xy[2 * l->n] = x;
    l->xy[2 * l->n + 1] = y;
    l->n++;
    return 0;
}

static ff_status read_goal_file(const char *path, ff_grid *g, ff_error *err)
{
    FILE *f = ff_infile_open(path, err);
    ff_records rec;
    double v[2];
    int n;
    size_t cap = g->ngoals, before = g->ngoals;
    ff_status st;

    if (!f)
        return err->status;
    ff_records_init(&rec, f, path);
    /* Checked goals are appended in file order and sorted once at the
     * end: a large file in any order costs n log n. */
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        if (!(fabs(v[0]) < 4e9 && fabs(v[1]) < 4e9) || v[0] != floor(v[0]) || v[1] != floor(v[1])) {
            st = ff_error_set(err, FF_EINPUT, path, rec.line, 0,
                              "goal %g %g is not a cell (two integers)", v[0], v[1]);
            break;
        }
        if ((st = ff_grid_append_goal(g, &cap, (int64_t)v[0], (int64_t)v[1], path, rec.line, 0,
                                      err)) != FF_OK)
            break;
    }
    ff_infile_close(f);
    if (st == FF_ENOTFOUND && g->ngoals == before)
        return ff_error_set(err, FF_EINPUT, path, 0, 0,
                            "no goal in the file (want lines 'X Y' or 'X,Y')");
    ff_grid_sort_goals(g);
    return st == FF_ENOTFOUND ? FF_OK : st;
}

/* Where a --goal-sets run writes: one multi-field stream, or DIR/NAME.ff
 * for each set. */
typedef struct {
    ff_outfile *stream;    /* the stream; NULL with split */
    const char *out_name;  /* the stream's name in messages */
    const char *split;     /* the folder, or NULL */
    int text;
    ff_progress progress;  /* of the fields written */
} sink;

static ff_status write_set(void *ctx, size_t index, const ff_field *field, ff_error *err)
{
    sink *s = ctx;
    ff_outfile one;
    ff_status st;
    char *path;

    if (!s->split) {
        if ((st = ff_field_write(s->stream->f, field, s->text, err)) != FF_OK)
            snprintf(err->file, sizeof err->file, "%s", s->out_name);
        ff_progress_update(&s->progress, index + 1);
        return st;
    }
    path = malloc(strlen(s->split) + strlen(field->name) + 5);
    if (!path)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    sprintf(path, "%s/%s.ff", s->split, field->name);
    if ((st = ff_outfile_open(&one, path, err)) == FF_OK) {
        if ((st = ff_field_write(one.f, field, s->text, err)) != FF_OK) {
            snprintf(err->file, sizeof err->file, "%s", path);
            ff_outfile_abort(&one);
        } else {
            st = ff_outfile_commit(&one, err);
        }
    }
    free(path);
    ff_progress_update(&s->progress, index + 1);
    return st;
}

/* The --goal-sets run: one field per set of sets_path on grid g (the map
 * read once, its clearance applied), or with list only their names. */
static ff_status build_sets(const ff_grid *g, const char *sets_path, const char *split,
                            const char *out_path, int list, int jobs, int text, int any_angle,
                            int progress,
                            ff_error *err)
{
    FILE *f = ff_infile_open(sets_path, err);
    ff_goal_sets sets;
    ff_outfile out;
    ff_status st;
    sink s;
    size_t k;

    if (!f)
        return err->status;
    st = ff_goal_sets_read(f, sets_path, g, &sets, err);
    ff_infile_close(f);
    if (st != FF_OK)
        return st;
    sets.any_angle = any_angle;
    if (split && (st = ff_outfile_folder(split, err)) != FF_OK)
        goto done;
    if (!split && (st = ff_outfile_open(&out, out_path, err)) != FF_OK)
        goto done;
    if (list) {
        for (k = 0; k < sets.nsets; k++)
            fprintf(out.f, "%s\n", sets.set[k].name);
    } else {
        s.stream = split ? NULL : &out;
        s.out_name = out_path ? out_path : "-";
        s.split = split;
        s.text = text;
        ff_progress_begin(&s.progress, ff_progress_wanted(stderr, progress) ? stderr : NULL,
                          prog, "field", sets.nsets);
        st = ff_batch_build(g, &sets, jobs, 0, write_set, &s, err);
        ff_progress_end(&s.progress);
    }
    if (!split && st == FF_OK)
        st = ff_outfile_commit(&out, err);
    else if (!split)
        ff_outfile_abort(&out);
done:
    ff_goal_sets_free(&sets);
    return st;
}

/* The --update run: every field of the stream in_path brought up to date
 * with the changes of changes_path, written to out_path. */
static ff_status update_stream(const char *changes_path, const char *in_path,
                               const char *out_path, uint64_t max_cells, int text, ff_error *err)
{
    FILE *cf = ff_infile_open(changes_path, err);
    FILE *in;
    ff_change_list changes;
    ff_repair repair;
    ff_reader rd;
    ff_outfile out;
    ff_field field;
    ff_status st;
    int nfields = 0;

    if (!cf)
        return err->status;
    st = ff_changes_read(cf, changes_path, &changes, err);
    ff_infile_close(cf);
    if (st != FF_OK)
        return st;
    if (!(in = ff_infile_open(in_path, err))) {
        ff_changes_free(&changes);
        return err->status;
    }
    if ((st = ff_outfile_open(&out, out_path, err)) != FF_OK) {
        ff_infile_close(in);
        ff_changes_free(&changes);
        return st;
    }
    ff_reader_init(&rd, in, in_path);
    rd.max_cells = max_cells;
    ff_repair_init(&repair);
    ff_field_init(&field);
    while ((st = ff_field_read(&rd, &field, err)) == FF_OK) {
        size_t k;
        nfields++;
        if (!field.distance) {
            st = ff_error_set(err, FF_EINPUT, in_path, 0, 0,
                              "field %d has no distance channel: --update repairs what "
                              "ffbuild wrote", nfields);
            break;
        }
        if (field.any_angle) {
            st = ff_error_set(err, FF_EINPUT, in_path, 0, 0,
                              "field %d is an any-angle field: --update repairs 8-move and "
                              "4-move fields only (a changed corner moves sight lines across "
                              "the map); rebuild it with ffbuild --any-angle", nfields);
            break;
        }
        if (field.turn) {
            st = ff_error_set(err, FF_EINPUT, in_path, 0, 0,
                              "field %d is a turn-cost field: --update repairs cell fields "
                              "only; rebuild it with ffbuild --turn-cost", nfields);
            break;
        }
        /* What ffbuild writes of the changed map: no direction, no other
         * channel. */
        free(field.direction);
        field.direction = NULL;
        field.direction_id = 0;
        for (k = 0; k < field.nextra; k++)
            free(field.extra[k].data);
        free(field.extra);
        field.extra = NULL;
        field.nextra = 0;
        if ((st = ff_field_apply_changes(&field, &changes, changes_path, &repair, NULL, err)) !=
            FF_OK)
            break;
        if ((st = ff_field_write(out.f, &field, text, err)) != FF_OK) {
            snprintf(err->file, sizeof err->file, "%s", out_path ? out_path : "-");
            break;
        }
        ff_field_free(&field);
    }
    ff_field_free(&field);
    if (st == FF_ENOTFOUND)
        st = nfields ? FF_OK : ff_error_set(err, FF_EINPUT, in_path, 0, 0,
                                            "empty input: no ff stream");
    ff_infile_close(in);
    ff_repair_free(&repair);
    ff_changes_free(&changes);
    if (st == FF_OK)
        return ff_outfile_commit(&out, err);
    ff_outfile_abort(&out);
    return st;
}

/* Refuse, naming the map, a map the any-angle field is not defined on
 * (anyangle.h): several open costs, one-way cells, terrain classes. */
static ff_status check_any_angle(const ff_grid *g, const char *in_path, ff_error *err)
{
    ff_grid goalless = *g;

    /* The goals come later, or from the sets: only the map is judged. */
    goalless.ngoals = 1;
    if (ff_anyangle_check(&goalless, err) != FF_OK) {
        if (!err->file[0])
            snprintf(err->file, sizeof err->file, "%s", in_path);
        return err->status;
    }
    return FF_OK;
}

/* Threads by default: one per online processor. */
static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

/* The command line, parsed. */
typedef struct {
    ff_map_options mopt;
    const char *goal_file, *out_path, *in_path, *name, *sets_path, *split, *update;
    /* -1: not given, keep what the map says (an ff stream carries its
     * own; other formats mean 8 moves, strict corners, radius 0). */
    int moves, corners;
    int text, list, jobs;
    int any_angle;             /* --any-angle */
    int progress;              /* --progress */
    double radius, turn_cost;  /* -1: not given */
    goal_list goals;           /* -g, in order; the caller frees xy */
} build_options;

/* Parse the command line into o; -1 to go on, or the exit status (help,
 * version, a usage error). */
static int parse_options(int argc, char **argv, build_options *o)
{
    enum { OPT_NAME = 256, OPT_GOAL_SETS, OPT_SPLIT, OPT_LIST, OPT_UPDATE, OPT_TURN_COST,
           OPT_LAYER, OPT_ANY_ANGLE, OPT_PROGRESS };
    static const struct option longopts[] = {
        { "goal", required_argument, NULL, 'g' },
        { "goals", required_argument, NULL, 'G' },
        { "moves", required_argument, NULL, 'm' },
        { "corners", required_argument, NULL, 'c' },
        { "radius", required_argument, NULL, 'r' },
        { "turn-cost", required_argument, NULL, OPT_TURN_COST },
        { "any-angle", no_argument, NULL, OPT_ANY_ANGLE },
        { "png-scale", required_argument, NULL, 'P' },
        { "layer", required_argument, NULL, OPT_LAYER },
        { "max-cells", required_argument, NULL, 'M' },
        { "name", required_argument, NULL, OPT_NAME },
        { "goal-sets", required_argument, NULL, OPT_GOAL_SETS },
        { "split", required_argument, NULL, OPT_SPLIT },
        { "list", no_argument, NULL, OPT_LIST },
        { "update", required_argument, NULL, OPT_UPDATE },
        { "progress", no_argument, NULL, OPT_PROGRESS },
        { "jobs", required_argument, NULL, 'j' },
        { "text", no_argument, NULL, 't' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    long long x, y, v;
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:m:c:r:j:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (ff_parse_cell(optarg, &x, &y))
                return usage_error("-g '%s': not a cell X,Y", optarg);
            if (goal_push(&o->goals, x, y)) {
                ff_error err;
                ff_error_set(&err, FF_ENOMEM, "-g", 0, 0, "out of memory for the goals");
                return fail(&err);
            }
            break;
        case 'G': o->goal_file = optarg; break;
        case 'm':
            if (ff_parse_int(optarg, 4, 8, &v) || (v != 4 && v != 8))
                return usage_error("--moves '%s': not 4 or 8", optarg);
            o->moves = (int)v;
            break;
        case 'c':
            if ((o->corners = ff_corners_parse(optarg)) < 0)
                return usage_error("--corners '%s': not strict, cut or free", optarg);
            break;
        case 'r':
            if (ff_parse_real(optarg, &o->radius) || !ff_range_ok(FF_RANGE_RADIUS, o->radius))
                return ff_range_error(prog, "--radius", optarg, FF_RANGE_RADIUS);
            break;
        case OPT_TURN_COST:
            if (ff_parse_real(optarg, &o->turn_cost) ||
                !ff_range_ok(FF_RANGE_TURN_COST, o->turn_cost))
                return ff_range_error(prog, "--turn-cost", optarg, FF_RANGE_TURN_COST);
            break;
        case 'P':
            if (ff_parse_real(optarg, &o->mopt.png_scale) ||
                !ff_range_ok(FF_RANGE_PNG_SCALE, o->mopt.png_scale))
                return ff_range_error(prog, "--png-scale", optarg, FF_RANGE_PNG_SCALE);
            break;
        case 'M':
            if (ff_option_max_cells(prog, optarg, &o->mopt.max_cells))
                return 2;
            break;
        case OPT_NAME:
            if (!ff_set_name_ok(optarg))
                return usage_error("--name '%s': not 1 to 63 of A-Z a-z 0-9 . _ -, "
                                   "not starting with . or -", optarg);
            o->name = optarg;
            break;
        case OPT_GOAL_SETS: o->sets_path = optarg; break;
        case OPT_LAYER: o->mopt.layer = optarg; break;
        case OPT_SPLIT:
            if (ff_option_output(prog, "--split", optarg))
                return 2;
            o->split = optarg;
            break;
        case OPT_LIST: o->list = 1; break;
        case OPT_ANY_ANGLE: o->any_angle = 1; break;
        case OPT_UPDATE: o->update = optarg; break;
        case OPT_PROGRESS: o->progress = 1; break;
        case 'j':
            if (ff_parse_int_in(optarg, FF_RANGE_JOBS, &v))
                return usage_error("--jobs '%s': not a whole number 1 to 1024", optarg);
            o->jobs = (int)v;
            break;
        case 't': o->text = 1; break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            o->out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return usage_error("'%s': one map at most", argv[optind + 1]);
    if (optind < argc)
        o->in_path = argv[optind];
    return -1;
}

/* The options that do not go together; -1 when they all do, or the exit
 * status of the usage error. */
static int check_options(const build_options *o)
{
    int goals = o->goals.n > 0 || o->goal_file || o->name;

    if (o->sets_path && goals)
        return usage_error("%s", "--goal-sets: it names its own goals, so -g, --goals and "
                                 "--name do not go with it");
    if (o->sets_path && o->turn_cost >= 0)
        return usage_error("%s", "--turn-cost: it does not go with --goal-sets; build each "
                                 "turn-cost field on its own");
    if (o->any_angle && o->turn_cost >= 0)
        return usage_error("%s", "--any-angle: it does not go with --turn-cost; an any-angle "
                                 "path has no 45-degree turns to price");
    if (o->any_angle && o->moves == 4)
        return usage_error("%s", "--any-angle: it does not go with -m 4; an any-angle path "
                                 "takes every direction");
    if (!o->sets_path && (o->split || o->list))
        return usage_error("%s", "--split, --list: they need --goal-sets");
    if (o->split && (o->list || o->out_path))
        return usage_error("%s", "--split: it writes files in its folder, so -o and --list "
                                 "do not go with it");
    if (o->goal_file && strcmp(o->goal_file, "-") == 0 && strcmp(o->in_path, "-") == 0)
        return usage_error("%s", "-: the map and the goals file cannot both be standard input");
    if (o->sets_path && strcmp(o->sets_path, "-") == 0 && strcmp(o->in_path, "-") == 0)
        return usage_error("%s", "-: the map and the goal sets cannot both be standard input");
    if (o->update && (goals || o->sets_path || o->moves > 0 || o->corners >= 0 ||
                      o->radius >= 0 || o->mopt.png_scale != 1 || o->turn_cost >= 0 ||
                      o->mopt.layer || o->any_angle))
        return usage_error("%s", "--update: it keeps the field's goals, rules and name, so -g, "
                                 "--goals, --goal-sets, -m, -c, -r, --png-scale, --turn-cost, "
                                 "--any-angle, --layer and --name do not go with it");
    if (o->update && strcmp(o->update, "-") == 0 && strcmp(o->in_path, "-") == 0)
        return usage_error("%s", "-: the field and the changes cannot both be standard input");
    if (!o->text && !o->split && !o->list && ff_option_binary_output(prog, o->out_path, "--text"))
        return 2;
    return -1;
}

/* Read the map of o->in_path into g with the rules of the command line
 * (moves, corners) and its clearance radius applied. */
static ff_status read_map(const build_options *o, ff_grid *g, ff_error *err)
{
    ff_map_options mopt = o->mopt;
    FILE *in = ff_infile_open(o->in_path, err);
    ff_status st;

    if (!in)
        return err->status;
    mopt.path = in == stdin ? NULL : o->in_path;
    st = ff_map_read(in, o->in_path, &mopt, g, err);
    ff_infile_close(in);
    if (st != FF_OK)
        return st;
    if (o->moves > 0)
        g->moves = o->moves;
    if (o->corners >= 0)
        g->corners = (ff_corners)o->corners;
    if (o->radius >= 0 && g->radius > 0 && o->radius != g->radius)
        return ff_error_set(err, FF_EINPUT, o->in_path, 0, 0,
                            "the map is already closed for radius %g: build radius %g from the "
                            "original map", g->radius, o->radius);
    if (o->radius > 0 && g->radius == 0)
        return ff_grid_apply_clearance(g, o->radius, err);
    return FF_OK;
}

/* The goals of g: the map's goal tiles, or those of -g and --goals instead
 * when given; each must be open. */
static ff_status set_goals(const build_options *o, ff_grid *g, ff_error *err)
{
    ff_status st;
    size_t k, goal_cap;

    if (o->goals.n > 0 || o->goal_file) {
        free(g->goals);
        g->goals = NULL;
        g->ngoals = 0;
    }
    for (k = 0; k < g->ngoals; k++) {
        uint32_t i = g->goals[k];
        if (!ff_grid_open(g, i))
            return ff_error_set(err, FF_EINPUT, o->in_path, 0, 0,
                                "goal tile %u,%u is closed by the clearance radius %g",
                                i % (uint32_t)g->w, i / (uint32_t)g->w, g->radius);
    }
    goal_cap = g->ngoals;
    for (k = 0; k < o->goals.n; k++)
        if ((st = ff_grid_append_goal(g, &goal_cap, o->goals.xy[2 * k], o->goals.xy[2 * k + 1],
                                      "-g", 0, 0, err)) != FF_OK)
            return st;
    ff_grid_sort_goals(g);
    if (o->goal_file)
        return read_goal_file(o->goal_file, g, err);
    return FF_OK;
}

/* The distance field of field's grid (with --turn-cost, over (cell,
 * heading) states), its name and its ids. */
static ff_status search_field(const build_options *o, ff_field *field, ff_error *err)
{
    size_t n = (size_t)field->grid.w * (size_t)field->grid.h;
    ff_status st;

    if (o->name)
        strcpy(field->name, o->name);
    if (!(field->distance = malloc(n * sizeof *field->distance)))
        return ff_error_set(err, FF_ENOMEM, o->in_path, 0, 0,
                            "out of memory for the distance field");
    if (o->turn_cost >= 0) {
        field->turn = 1;
        field->turn_cost = o->turn_cost + 0.0;
        if ((uint64_t)n > FF_TURN_MAX_CELLS ||
            !(field->heading_distance = ff_turn_distances_alloc(n)))
            return ff_error_set(err, (uint64_t)n > FF_TURN_MAX_CELLS ? FF_EINPUT : FF_ENOMEM,
                                o->in_path, 0, 0, "%s for the heading distances of %zu cells",
                                (uint64_t)n > FF_TURN_MAX_CELLS ? "too large a map"
                                                                : "out of memory", n);
    }
    if (o->any_angle && (st = check_any_angle(&field->grid, o->in_path, err)) != FF_OK)
        return st;
    st = field->turn ? ff_turn_search(&field->grid, field->turn_cost, field->heading_distance,
                                      field->distance, err)
         : field->any_angle ? ff_anyangle_search(&field->grid, field->distance, NULL, err)
                            : ff_search(&field->grid, field->distance, err);
    if (st != FF_OK) {
        if (!err->file[0])
            snprintf(err->file, sizeof err->file, "%s", o->in_path);
        return st;
    }
    ff_field_update_ids(field);
    return FF_OK;
}

/* Write field to -o (atomically) or standard output. */
static ff_status write_field(const build_options *o, const ff_field *field, ff_error *err)
{
    ff_outfile out;
    ff_status st;

    if ((st = ff_outfile_open(&out, o->out_path, err)) != FF_OK)
        return st;
    if ((st = ff_field_write(out.f, field, o->text, err)) != FF_OK) {
        snprintf(err->file, sizeof err->file, "%s", o->out_path ? o->out_path : "-");
        ff_outfile_abort(&out);
        return st;
    }
    return ff_outfile_commit(&out, err);
}

/* Build what the command line asks from its map: the fields of the goal
 * sets, or the one field of its goals. */
static ff_status build(const build_options *o, ff_error *err)
{
    ff_field field;
    ff_status st;

    ff_field_init(&field);
    if ((st = read_map(o, &field.grid, err)) != FF_OK)
        goto done;
    if (o->any_angle) {
        /* The map's own rules, checked before any goal is: a goal is not
         * the map's fault. */
        field.grid.moves = 8;
        field.any_angle = 1;
    }
    if (o->sets_path) {
        if ((st = o->any_angle ? check_any_angle(&field.grid, o->in_path, err) : FF_OK) == FF_OK)
            st = build_sets(&field.grid, o->sets_path, o->split, o->out_path, o->list, o->jobs,
                            o->text, o->any_angle, o->progress, err);
        if (st != FF_OK && !err->file[0])
            snprintf(err->file, sizeof err->file, "%s", o->in_path);
        goto done;
    }
    if ((st = set_goals(o, &field.grid, err)) == FF_OK &&
        (st = search_field(o, &field, err)) == FF_OK)
        st = write_field(o, &field, err);
done:
    ff_field_free(&field);
    return st;
}

int main(int argc, char **argv)
{
    build_options o;
    ff_error err;
    ff_status st;
    int status;

    memset(&o, 0, sizeof o);
    ff_map_options_init(&o.mopt);
    o.in_path = "-";
    o.moves = o.corners = -1;
    o.radius = o.turn_cost = -1;
    o.jobs = default_jobs();
    ff_error_clear(&err);
    if ((status = parse_options(argc, argv, &o)) < 0 && (status = check_options(&o)) < 0) {
        st = o.update ? update_stream(o.update, o.in_path, o.out_path, o.mopt.max_cells, o.text,
                                      &err)
                      : build(&o, &err);
        status = st == FF_OK ? 0 : fail(&err);
    }
    free(o.goals.xy);
    return status;
}
