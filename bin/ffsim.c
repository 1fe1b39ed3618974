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
            "direction channel), or on a map (any format ffbuild reads) when the agents\n"
            "have goals of their own or their classes': one trace line per agent per\n"
            "tick, then a summary.\n"
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

/* Classes with agents that start where their field has no way to a goal:
 * one line each, before the run. */
static void report_unreachable(const ff_crowd *crowd, const ff_scenario *scen)
{
    size_t k, j;
    for (k = 0; k < scen->nclasses; k++) {
        size_t total = 0;
        if (!crowd->class_unreachable[k])
            continue;
        for (j = 0; j < scen->nagents; j++)
            total += scen->agent[j].cls == (int32_t)k;
        fprintf(stderr, "%s: class %s: %zu of %zu agents cannot reach a goal from where they start "
                "(radius %g; first: agent %u)\n", prog, scen->cls[k].name, crowd->class_unreachable[k],
                total, scen->cls[k].radius, crowd->class_first_unreachable[k]);
    }
}

static void report_deadlocks(const ff_crowd *crowd)
{
    size_t k, j;
    for (k = 0; k < crowd->ndeadlocks; k++) {
        fprintf(stderr, "%s: tick %lld: deadlock: agents", prog, crowd->tick);
        for (j = crowd->deadlock_start[k]; j < crowd->deadlock_start[k + 1]; j++)
            fprintf(stderr, " %u", crowd->deadlock_id[j]);
        fprintf(stderr, " wait on each other\n");
    }
}

/* --check: one line on stderr for each agent that did not arrive, in id
 * order; 1 when there is any. */
static int report_misses(const ff_crowd *crowd)
{
    size_t k, n = 0;
    for (k = 0; k < crowd->nagents; k++) {
        ff_miss m = ff_agent_miss(&crowd->agent[k]);
        if (m == FF_MISS_NONE)
            continue;
        n++;
        fprintf(stderr, "%s: agent %u did not arrive: %s (%s)\n", prog, crowd->agent[k].id,
                ff_miss_name(m), ff_miss_why(m));
    }
    return n ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "direction", required_argument, NULL, 'd' },
        { "every", required_argument, NULL, 'e' },
        { "summary", required_argument, NULL, 's' },
        { "max-cells", required_argument, NULL, 'M' },
        { "max-memory", required_argument, NULL, 'B' },
        { "check", no_argument, NULL, 'C' },
        { "json", no_argument, NULL, 'J' },
        { "moves", required_argument, NULL, 'm' },
        { "name", required_argument, NULL, 'n' },
        { "list", no_argument, NULL, 'L' },
        { "realtime", no_argument, NULL, 'R' },
        { "progress", no_argument, NULL, 'P' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *out_path = NULL, *summary_path = NULL, *field_path, *scen_path, *name = NULL;
    int c, smooth = 1, code, realtime = 0, check = 0, list = 0, paused, progress = 0, is_map;
    int moves = 0;
    ff_progress shown_progress = { 0 };
    unsigned long long overruns = 0;
    double next_tick = 0, started;
    ff_profiles prof;
    long long every = 1;
    uint64_t max_cells = 0, max_memory = FF_SIM_MAX_MEMORY_DEFAULT;
    ff_field_budget budget;
    double busy = 0, setup, rate;
    ff_error err;
    ff_field field;
    ff_scenario scen;
    ff_crowd crowd;
    ff_crowd_summary sum;
    ff_outfile out, sout;
    ff_status (*write_summary)(FILE *, const ff_crowd_summary *, double, ff_error *) =
        ff_crowd_write_summary;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":m:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (strcmp(optarg, "smooth") == 0)
                smooth = 1;
            else if (strcmp(optarg, "raw") == 0)
                smooth = 0;
            else
                return usage_error("--direction '%s': not raw or smooth", optarg);
            break;
        case 'e':
            if (ff_parse_int_in(optarg, FF_RANGE_SIM_EVERY, &every))
                return usage_error("--every '%s': not a whole number 1 to 1000000000", optarg);
            break;
        case 's':
            if (ff_option_output(prog, "--summary", optarg))
                return 2;
            summary_path = optarg;
            break;
        case 'M':
            if (ff_option_max_cells(prog, optarg, &max_cells))
                return 2;
            break;
        case 'B':
            if (ff_option_memory(prog, "--max-memory", optarg, &max_memory))
                return 2;
            break;
        case 'm':
            if (strcmp(optarg, "4") != 0 && strcmp(optarg, "8") != 0)
                return usage_error("--moves '%s': not 4 or 8", optarg);
            moves = optarg[0] - '0';
            break;
        case 'R': realtime = 1; break;
        case 'P': progress = 1; break;
        case 'C': check = 1; break;
        case 'J': write_summary = ff_crowd_write_summary_json; break;
        case 'n': name = optarg; break;
        case 'L': list = 1; break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (list) {
        if (argc - optind != 1)
            return usage_error("%s", "--list: want FIELD alone");
        if (ff_field_list_file(argv[optind], max_cells, out_path, &err) == FF_OK)
            return 0;
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    if (argc - optind != 2)
        return usage_error("%s", "FIELD SCENARIO: want the two");
    if (ff_outfile_same(out_path, summary_path))
        return usage_error("--summary '%s': the file -o writes the trace to", summary_path);
    field_path = argv[optind];
    scen_path = argv[optind + 1];
    if (strcmp(field_path, "-") == 0 && strcmp(scen_path, "-") == 0)
        return usage_error("%s", "-: FIELD and SCENARIO cannot both be standard input");

    ff_field_init(&field);
    ff_scenario_init(&scen);
    memset(&crowd, 0, sizeof crowd);
    memset(&prof, 0, sizeof prof);
    if (ff_sim_input_read(field_path, name, max_cells, &field, &is_map, &err) != FF_OK)
        goto failed;
    if (moves && !is_map) {
        ff_field_free(&field);
        return usage_error("%s", "-m: the stream's field has its moves: give -m with a map");
    }
    if (moves)
        field.grid.moves = moves;
    {
        FILE *in = ff_infile_open(scen_path, &err);
        ff_status st;
        if (!in)
            goto failed;
        st = ff_scenario_read(in, scen_path, &field.grid, &scen, &err);
        ff_infile_close(in);
        if (st != FF_OK || (is_map && ff_sim_input_check_goals(&scen, &field.grid, field_path,
                                                               &err) != FF_OK))
            goto failed;
    }
    /* Every field the run builds, counted before the first is. */
    if (ff_field_budget_count(&budget, &scen, &field.grid, field.turn, &err) != FF_OK ||
        ff_field_budget_check(&budget, max_memory, scen_path, &err) != FF_OK)
        goto failed;
    /* The run's processor time: its first fields and the crowd, then
     * every tick (busy). */
    setup = now_seconds();
    if (ff_profiles_init_turn(&prof, &scen, &field.grid, field.turn, field.turn_cost, scen_path,
                              &err) != FF_OK)
        goto failed;
    ff_field_free(&field);  /* the profiles hold their own copies */
    if (ff_crowd_init_profiles(&crowd, &scen, &prof, smooth, &err) != FF_OK)
        goto failed;
    setup = now_seconds() - setup;
    report_unreachable(&crowd, &scen);
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed;
    if (ff_crowd_write_header(out.f, &crowd, &err) != FF_OK)
        goto failed_write;
    /* Tick 0 places the first agents; ticks 1..N move them.  The
     * processor clock runs for the simulation alone: it is read only
     * around what is written (or paced), not at every tick. */
    ff_progress_begin(&shown_progress, ff_progress_wanted(stderr, progress) ? stderr : NULL, prog,
                      "tick", (uint64_t)scen.ticks);
    next_tick = wall_seconds();
    started = now_seconds();
    for (;;) {
        double w0 = realtime ? wall_seconds() : 0;
        int shown, over, last;
        if (ff_crowd_step(&crowd, &err) != FF_OK)
            goto failed_out;
        last = crowd.tick >= scen.ticks;
        /* Nothing can change any more: the run is over. */
        over = !last && ff_crowd_check_over(&crowd);
        shown = crowd.tick % every == 0;
        paused = shown || over || last || realtime || crowd.ndeadlocks > 0;
        if (paused)
            busy += now_seconds() - started;
        if (crowd.ndeadlocks > 0)
            ff_progress_clear(&shown_progress);
        report_deadlocks(&crowd);
        ff_progress_update(&shown_progress, (uint64_t)crowd.tick);
        if (realtime) {
            if (wall_seconds() - w0 > scen.tick_dt)
                overruns++;
            next_tick += scen.tick_dt;
            sleep_until(next_tick);
        }
        if (shown && ff_crowd_write_tick(out.f, &crowd, &err) != FF_OK)
            goto failed_write;
        if (over && ff_crowd_write_over(out.f, &crowd, &err) != FF_OK)
            goto failed_write;
        if (over || last)
            break;
        if (paused)
            started = now_seconds();
    }
    ff_progress_end(&shown_progress);
    if (ff_crowd_summarise(&crowd, &sum, &err) != FF_OK)
        goto failed_out;
    sum.tick_overruns = overruns;
    sum.run_seconds = setup + busy;
    rate = busy > 0 ? (double)sum.stats.agent_steps / busy : 0;
    /* Both outputs are written and checked before either is renamed into
     * place: a failure of one leaves neither.  A summary on stderr comes
     * only after the trace is safe. */
    if (ff_outfile_finish(&out, &err) != FF_OK)
        goto failed;
    if (summary_path) {
        if (ff_outfile_open(&sout, summary_path, &err) != FF_OK)
            goto failed_out;
        if (write_summary(sout.f, &sum, rate, &err) != FF_OK) {
            write_failed(&err, summary_path);
            ff_outfile_abort(&sout);
            goto failed_out;
        }
        if (ff_outfile_finish(&sout, &err) != FF_OK)
            goto failed_out;
    }
    if (ff_outfile_commit(&out, &err) != FF_OK) {
        if (summary_path)
            ff_outfile_abort(&sout);
        goto failed;
    }
    if (summary_path && ff_outfile_commit(&sout, &err) != FF_OK)
        goto failed;
    if (!summary_path && write_summary(stderr, &sum, rate, &err) != FF_OK) {
        write_failed(&err, "stderr");
        goto failed;
    }
    code = check ? report_misses(&crowd) : 0;
    ff_crowd_free(&crowd);
    ff_profiles_free(&prof);
    ff_scenario_free(&scen);
    ff_field_free(&field);
    return code;
failed_write:
    write_failed(&err, out_path);
failed_out:
    ff_outfile_abort(&out);
failed:
    ff_progress_end(&shown_progress);
    ff_error_print(stderr, prog, &err);
    code = ff_exit_status(err.status);
    if (crowd.agent)
        ff_crowd_free(&crowd);
    ff_profiles_free(&prof);
    ff_scenario_free(&scen);
    ff_field_free(&field);
    return code;
}
