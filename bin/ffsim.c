/* ffsim - deterministic crowd replay: agents of a scenario follow a field
 * through a map, tick by tick (man 1 ffsim, man 5 ffsim). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crowd.h"
#include "anyangle.h"
#include "crowdcheck.h"
#include "fieldbudget.h"
#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "profiles.h"
#include "progress.h"
#include "ranges.h"
#include "scenario.h"
#include "siminput.h"
#include "stream.h"

static const char *prog = "ffsim";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffsim [--direction raw|smooth] [--every N] [--summary FILE] [--json]\n"
            "             [--check] [-m 4|8] [--name NAME] [--max-cells N]\n"
            "             [--max-memory SIZE] [--realtime] [--progress] [-o TRACE]\n"
            "             FIELD SCENARIO\n"
            "       ffsim --list FIELD\n"
            "Replay the crowd of SCENARIO (man 5 ffsim) on the ff stream FIELD (with a\n"
            "direction channel, or an any-angle field's vector channel), or on a map (any\n"
            "format ffbuild reads) when the agents have goals of their own or their\n"
            "classes': one trace line per agent per tick, then a summary.\n"
            "      --direction D    follow the 'smooth' (default) or 'raw' cell direction\n"
            "      --every N        write every Nth tick of the trace (default 1)\n"
            "      --summary FILE   write the summary to FILE instead of stderr\n"
            "      --json           write the summary as one JSON object\n"
            "      --check          exit 1 when an agent did not arrive, a line each on why\n"
            "  -m, --moves 4|8      with a map for FIELD: its move set (default: the map's)\n"
            "      --name NAME      the field named NAME of a multi-field stream\n"
            "      --list           print the names of FIELD's fields and stop\n"
            "      --max-cells N    refuse a stream of more cells (default 1073741824)\n"
            "      --max-memory SIZE  refuse a run whose fields take more than SIZE bytes\n"
            "                       (K, M, G: 1024, 1024^2, 1024^3; default 3G)\n"
            "      --realtime       pace the ticks at the tick length; count overruns\n"
            "      --progress       show the tick reached on stderr (default on a terminal)\n"
            "  -o, --output FILE    write the trace to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

static int usage_error(const char *fmt, const char *arg)
{
    return ff_usage_error(prog, fmt, arg);
}

/* A write to name failed: say so as every program does. */
static void write_failed(ff_error *err, const char *name)
{
    int e = errno;

    if (err->status == FF_EIO)
        ff_error_set(err, FF_EIO, name ? name : "-", 0, 0, "write error: %s",
                     strerror(e ? e : EIO));
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sleep until wall time t (seconds of CLOCK_MONOTONIC), at most a tick's
 * longest length (ranges.h) at once: the conversion to whole seconds
 * cannot overflow time_t, whatever t. */
static void sleep_until(double t)
{
    double left = t - wall_seconds();
    if (left > ff_ranges[FF_RANGE_TICK].max)
        left = ff_ranges[FF_RANGE_TICK].max;
    if (left > 0) {
        struct timespec ts;
        ts.tv_sec = (time_t)left;
        ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
        nanosleep(&ts, NULL);
    }
}

/* A stream already closed for a radius R0 > 0 under a class of another
 * radius: the class's clearance goes on top of R0 (PROFILES in ffsim(1)),
 * so its agents may find no way where there is room.  One line before the
 * run, naming the first such class. */
static void report_stream_radius(const ff_scenario *scen, const ff_grid *stream)
{
    size_t k;
    if (!(stream->radius > 0))
        return;
    for (k = 0; k < scen->nclasses; k++)
        if (scen->cls[k].radius != stream->radius) {
            fprintf(stderr, "%s: the stream is closed for radius %g; build it with radius 0 for "
                    "classes of several sizes (class %s: radius %g)\n", prog, stream->radius,
                    scen->cls[k].name, scen->cls[k].radius);
            return;
        }
}

/* Classes with agents that start where their field has no way to a goal:
 * one line each, before the run. */
static void report_unreachable(const ff_crowd *crowd, const ff_scenario *scen)
{
    size_t k, j;
    for (k = 0; k < scen->nclasses; k++) {
        size_t total = 0, n;
        uint32_t first = 0;
        if (!(n = ff_crowd_unreachable(crowd, k, &first)))
            continue;
        for (j = 0; j < scen->nagents; j++)
            total += scen->agent[j].cls == (int32_t)k;
        fprintf(stderr, "%s: class %s: %zu of %zu agents cannot reach a goal from where they start "
                "(radius %g; first: agent %u)\n", prog, scen->cls[k].name, n,
                total, scen->cls[k].radius, first);
    }
}

static void report_deadlocks(const ff_crowd *crowd)
{
    size_t k, j, n;
    for (k = 0; k < ff_crowd_deadlock_count(crowd); k++) {
        const uint32_t *id = ff_crowd_deadlock(crowd, k, &n);
        fprintf(stderr, "%s: tick %lld: deadlock: agents", prog, ff_crowd_tick(crowd));
        for (j = 0; j < n; j++)
            fprintf(stderr, " %u", id[j]);
        fprintf(stderr, " wait on each other\n");
    }
}

/* Steering agents stuck at the last tick: one line, the first 32 ids. */
static void report_stuck(const ff_crowd *crowd)
{
    size_t j, n;
    const uint32_t *id = ff_crowd_stuck(crowd, &n);
    if (n == 0)
        return;
    fprintf(stderr, "%s: tick %lld: stuck: agents", prog, ff_crowd_tick(crowd));
    for (j = 0; j < n && j < 32; j++)
        fprintf(stderr, " %u", id[j]);
    if (n > 32)
        fprintf(stderr, " and %zu more", n - 32);
    fprintf(stderr, " make no way to their goals\n");
}

/* --check: one line on stderr for each agent that did not arrive, in id
 * order; 1 when there is any. */
static int report_misses(const ff_crowd *crowd)
{
    size_t k, n = 0;
    for (k = 0; k < ff_crowd_agent_count(crowd); k++) {
        ff_miss m = ff_crowd_agent_miss(crowd, k);
        ff_agent_view a;
        if (m == FF_MISS_NONE)
            continue;
        n++;
        ff_crowd_agent(crowd, k, &a);
        fprintf(stderr, "%s: agent %u did not arrive: %s (%s)\n", prog, a.id, ff_miss_name(m),
                ff_miss_why(m));
    }
    return n ? 1 : 0;
}

/* What the command line asks for. */
typedef struct {
    const char *out_path, *summary_path, *field_path, *scen_path, *name;
    int smooth, realtime, check, list, progress;
    int moves;                     /* -m with a map: 4 or 8; 0 the map's */
    long long every;
    uint64_t max_cells, max_memory;
    ff_status (*write_summary)(FILE *, const ff_crowd_summary *, double, ff_error *);
} options;

/* Parse the command line into *o: -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        { "direction", required_argument, NULL, 'd' },
        { "every", required_argument, NULL, 'e' },
        { "summary", required_argument, NULL, 's' },
        { "max-cells", required_argument, NULL, 'M' },
        { "max-memory", required_argument, NULL, 'B' },
        { "json", no_argument, NULL, 'J' },
        { "moves", required_argument, NULL, 'm' },
        { "progress", no_argument, NULL, 'P' },
        { "check", no_argument, NULL, 'C' },
        { "name", required_argument, NULL, 'n' },
        { "list", no_argument, NULL, 'L' },
        { "realtime", no_argument, NULL, 'R' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    memset(o, 0, sizeof *o);
    o->smooth = 1;
    o->every = 1;
    o->max_cells = 0;
    o->max_memory = FF_SIM_MAX_MEMORY_DEFAULT;
    o->write_summary = ff_crowd_write_summary;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":m:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (strcmp(optarg, "smooth") == 0)
                o->smooth = 1;
            else if (strcmp(optarg, "raw") == 0)
                o->smooth = 0;
            else
                return usage_error("--direction '%s': not raw or smooth", optarg);
            break;
        case 'e':
            if (ff_parse_int_in(optarg, FF_RANGE_SIM_EVERY, &o->every))
                return usage_error("--every '%s': not a whole number 1 to 1000000000", optarg);
            break;
        case 's':
            if (ff_option_output(prog, "--summary", optarg))
                return 2;
            o->summary_path = optarg;
            break;
        case 'M':
            if (ff_option_max_cells(prog, optarg, &o->max_cells))
                return 2;
            break;
        case 'B':
            if (ff_option_memory(prog, "--max-memory", optarg, &o->max_memory))
                return 2;
            break;
        case 'm':
            if (strcmp(optarg, "4") != 0 && strcmp(optarg, "8") != 0)
                return usage_error("--moves '%s': not 4 or 8", optarg);
            o->moves = optarg[0] - '0';
            break;
        case 'P': o->progress = 1; break;
        case 'J': o->write_summary = ff_crowd_write_summary_json; break;
        case 'R': o->realtime = 1; break;
        case 'C': o->check = 1; break;
        case 'n': o->name = optarg; break;
        case 'L': o->list = 1; break;
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
    if (o->list)
        return argc - optind != 1 ? usage_error("%s", "--list: want FIELD alone") : -1;
    if (argc - optind != 2)
        return usage_error("%s", "FIELD SCENARIO: want the two");
    if (ff_outfile_same(o->out_path, o->summary_path))
        return usage_error("--summary '%s': the file -o writes the trace to", o->summary_path);
    o->field_path = argv[optind];
    o->scen_path = argv[optind + 1];
    if (strcmp(o->field_path, "-") == 0 && strcmp(o->scen_path, "-") == 0)
        return usage_error("%s", "-: FIELD and SCENARIO cannot both be standard input");
    return -1;
}

/* The scenario at path, for the map of grid. */
static ff_status read_scenario(const char *path, const ff_grid *grid, ff_scenario *scen, ff_error *err)
{
    FILE *in = ff_infile_open(path, err);
    ff_status st;

    if (!in)
        return err->status;
    st = ff_scenario_read(in, path, grid, scen, err);
    ff_infile_close(in);
    return st;
}

/* The run's measures the summary adds to the crowd's. */
typedef struct {
    double busy;                   /* processor seconds of the ticks */
    unsigned long long overruns;   /* --realtime: ticks that overran */
} run_clock;

/* Tick to the end (the scenario's last tick, or the tick after which
 * nothing can change), writing the trace to out.  The processor clock
 * runs for the simulation alone: it is read only around what is written
 * (or paced), not at every tick.  FF_OK, or the failure in err. */
static ff_status run(ff_crowd *crowd, const ff_scenario *scen, const options *o, FILE *out,
                     run_clock *rc, ff_error *err)
{
    double next_tick = wall_seconds(), started = now_seconds();
    ff_progress progress;

    ff_progress_begin(&progress, ff_progress_wanted(stderr, o->progress) ? stderr : NULL, prog,
                      "tick", (uint64_t)scen->ticks);
    for (;;) {
        double w0 = o->realtime ? wall_seconds() : 0;
        int shown, over, last, paused;
        size_t nstuck;
        long long t;
        if (ff_crowd_step(crowd, err) != FF_OK) {
            ff_progress_end(&progress);
            return err->status;
        }
        t = ff_crowd_tick(crowd);
        last = t >= scen->ticks;
        /* Nothing can change any more: the run is over. */
        over = !last && ff_crowd_check_over(crowd);
        shown = t % o->every == 0;
        ff_crowd_stuck(crowd, &nstuck);
        paused = shown || over || last || o->realtime || ff_crowd_deadlock_count(crowd) > 0 ||
                 nstuck > 0;
        if (paused)
            rc->busy += now_seconds() - started;
        if (ff_crowd_deadlock_count(crowd) > 0 || nstuck > 0)
            ff_progress_clear(&progress);
        report_deadlocks(crowd);
        report_stuck(crowd);
        ff_progress_update(&progress, (uint64_t)t);
        if (o->realtime) {
            if (wall_seconds() - w0 > scen->tick_dt)
                rc->overruns++;
            next_tick += scen->tick_dt;
            sleep_until(next_tick);
        }
        if ((shown && ff_crowd_write_tick(out, crowd, err) != FF_OK) ||
            (over && ff_crowd_write_over(out, crowd, err) != FF_OK)) {
            ff_progress_end(&progress);
            write_failed(err, o->out_path);
            return err->status;
        }
        if (over || last) {
            ff_progress_end(&progress);
            return FF_OK;
        }
        if (paused)
            started = now_seconds();
    }
}

/* Write the summary and commit the trace (out, finished): both are
 * written and checked before either is renamed into place, so that a
 * failure of one leaves neither; a summary on stderr comes only after
 * the trace is safe.  On failure out is aborted. */
static ff_status finish(ff_outfile *out, const options *o, const ff_crowd_summary *sum,
                        double rate, ff_error *err)
{
    ff_outfile sout;

    if (o->summary_path) {
        if (ff_outfile_open(&sout, o->summary_path, err) != FF_OK)
            goto abort_out;
        if (o->write_summary(sout.f, sum, rate, err) != FF_OK) {
            write_failed(err, o->summary_path);
            ff_outfile_abort(&sout);
            goto abort_out;
        }
        if (ff_outfile_finish(&sout, err) != FF_OK)
            goto abort_out;
    }
    if (ff_outfile_commit(out, err) != FF_OK) {
        if (o->summary_path)
            ff_outfile_abort(&sout);
        return err->status;
    }
    if (o->summary_path && ff_outfile_commit(&sout, err) != FF_OK)
        return err->status;
    if (!o->summary_path && o->write_summary(stderr, sum, rate, err) != FF_OK) {
        write_failed(err, "stderr");
        return err->status;
    }
    return FF_OK;
abort_out:
    ff_outfile_abort(out);
    return err->status;
}

/* An any-angle field is followed as it was built (its vectors, its
 * clearance radius, not the classes'): a scenario that needs fields of
 * its own, or steps from cell to cell, is refused, naming what. */
static ff_status anyangle_scenario(const ff_scenario *s, const char *path, ff_error *err)
{
    const char *why = s->move == FF_MOVE_GRID ? "cell-to-cell moves step by direction codes"
                      : s->nevents            ? "its map events would rebuild the field"
                      : s->congestion         ? "congestion fields are 8-move fields"
                      : s->ngoal_events       ? "its goal changes would build fields of their own"
                                              : NULL;
    size_t k;

    for (k = 0; !why && k < s->nclasses; k++)
        if (s->cls[k].ngoals)
            why = "a class with goals of its own follows a field of its own";
    for (k = 0; !why && k < s->nagents; k++)
        if (s->agent[k].goal >= 0)
            why = "an agent with a goal of its own follows a field of its own";
    if (why)
        return ff_error_set(err, FF_EINPUT, path, 0, 0,
                            "on an any-angle field, %s: build the field without --any-angle",
                            why);
    return FF_OK;
}

/* The crowd of scenario scen following any-angle field's vectors, with
 * the direction codes that stand for them into *codes (the caller frees
 * it, after the crowd). */
static ff_crowd *anyangle_crowd(const options *o, const ff_field *field, const ff_scenario *scen,
                                uint8_t **codes, ff_error *err)
{
    size_t n = (size_t)field->grid.w * (size_t)field->grid.h, i;
    const float *vec = ff_field_vectors(field);
    ff_crowd *crowd;

    if (anyangle_scenario(scen, o->scen_path, err) != FF_OK)
        return NULL;
    if (!(*codes = malloc(n ? n : 1))) {
        ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
        return NULL;
    }
    for (i = 0; i < n; i++)
        (*codes)[i] = (uint8_t)ff_anyangle_code(field->distance[i], vec[2 * i], vec[2 * i + 1]);
    if ((crowd = ff_crowd_new_field(scen, &field->grid, *codes, o->smooth, err)) != NULL)
        ff_crowd_follow_vectors(crowd, vec);
    return crowd;
}

/* The run of the crowd of scenario scen on the profiles of field: the
 * trace, the summary; the exit status of --check in *code. */
static ff_status simulate(const options *o, ff_field *field, ff_scenario *scen, ff_profiles *prof,
                          int *code, ff_error *err)
{
    ff_field_budget budget;
    ff_crowd_summary sum;
    ff_crowd *crowd = NULL;
    uint8_t *codes = NULL;
    ff_outfile out;
    run_clock rc = { 0, 0 };
    double setup, rate;
    ff_status st;

    report_stream_radius(scen, &field->grid);
    /* Every field the run builds, counted before the first is (an
     * any-angle field's crowd builds none). */
    if (!field->any_angle &&
        (ff_field_budget_count(&budget, scen, &field->grid, field->turn, err) != FF_OK ||
         ff_field_budget_check(&budget, o->max_memory, o->scen_path, err) != FF_OK))
        return err->status;
    /* The run's processor time: its first fields and the crowd, then
     * every tick (busy). */
    setup = now_seconds();
    if (field->any_angle) {
        if (!(crowd = anyangle_crowd(o, field, scen, &codes, err))) {
            free(codes);
            return err->status;
        }
    } else {
        if (ff_profiles_init_turn(prof, scen, &field->grid, field->turn, field->turn_cost,
                                  o->scen_path, err) != FF_OK)
            return err->status;
        ff_field_free(field);  /* the profiles hold their own copies */
        if (!(crowd = ff_crowd_new(scen, prof, o->smooth, err)))
            return err->status;
    }
    setup = now_seconds() - setup;
    report_unreachable(crowd, scen);
    if ((st = ff_outfile_open(&out, o->out_path, err)) != FF_OK)
        goto done;
    if (ff_crowd_write_header(out.f, crowd, err) != FF_OK) {
        write_failed(err, o->out_path);
        st = err->status;
    } else {
        st = run(crowd, scen, o, out.f, &rc, err);
    }
    if (st == FF_OK)
        st = ff_crowd_summarise(crowd, &sum, err);
    if (st == FF_OK && (st = ff_outfile_finish(&out, err)) != FF_OK)
        goto done;  /* (finish aborts on failure) */
    if (st != FF_OK) {
        ff_outfile_abort(&out);
        goto done;
    }
    sum.tick_overruns = rc.overruns;
    sum.run_seconds = setup + rc.busy;
    rate = rc.busy > 0 ? (double)sum.stats.agent_steps / rc.busy : 0;
    if ((st = finish(&out, o, &sum, rate, err)) == FF_OK)
        *code = o->check ? report_misses(crowd) : 0;
done:
    ff_crowd_delete(crowd);
    free(codes);
    return st;
}

int main(int argc, char **argv)
{
    options o;
    int code, is_map = 0;
    ff_status st;
    ff_error err;
    ff_field field;
    ff_scenario scen;
    ff_profiles prof;

    ff_error_clear(&err);
    if ((code = parse_options(argc, argv, &o)) >= 0)
        return code;
    if (o.list) {
        if (ff_field_list_file(argv[optind], o.max_cells, o.out_path, &err) == FF_OK)
            return 0;
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    ff_field_init(&field);
    ff_scenario_init(&scen);
    memset(&prof, 0, sizeof prof);
    code = 0;
    st = ff_sim_input_read(o.field_path, o.name, o.max_cells, &field, &is_map, &err);
    if (st == FF_OK && o.moves && !is_map) {
        ff_field_free(&field);
        return usage_error("%s", "-m: the stream's field has its moves: give -m with a map");
    }
    if (st == FF_OK && o.moves)
        field.grid.moves = o.moves;
    if (st != FF_OK ||
        read_scenario(o.scen_path, &field.grid, &scen, &err) != FF_OK ||
        (is_map && ff_sim_input_check_goals(&scen, &field.grid, o.field_path, &err) != FF_OK) ||
        simulate(&o, &field, &scen, &prof, &code, &err) != FF_OK) {
        ff_error_print(stderr, prog, &err);
        code = ff_exit_status(err.status);
    }
    ff_profiles_free(&prof);
    ff_scenario_free(&scen);
    ff_field_free(&field);
    return code;
}
