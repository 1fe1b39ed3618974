// crowd.cc - a C++ program on the public crowd API (crowd.h and the
// installed headers alone): reads an ff stream and a scenario, runs the
// crowd as ffsim does (to the scenario's last tick, or the tick after
// which nothing can change), then prints on stdout one line per agent
// of the last tick's trace (present, or arrived and gone at it):
//   tick id x y state
// and the summary, timing lines aside, on stderr.  tests/cli/test_cxx.sh
// builds it with c++ and compares both with ffsim's.
#include <cstdio>
#include <cstring>

#include "crowd.h"
#include "crowdcheck.h"
#include "fieldsel.h"
#include "infile.h"
#include "profiles.h"
#include "scenario.h"
#include "stream.h"

namespace {

int fail(const ff_error &err)
{
    ff_error_print(stderr, "crowd.cc", &err);
    return 2;
}

bool in_trace(const ff_agent_view &a, long long tick)
{
    return (a.state >= FF_AGENT_MOVING && a.state <= FF_AGENT_ARRIVED) ||
           (a.state == FF_AGENT_GONE && a.arrival_tick == tick);
}

} // namespace

int main(int argc, char **argv)
{
    ff_error err;
    ff_field field;
    ff_scenario scen;
    ff_profiles prof;
    ff_reader reader;
    ff_crowd_summary sum;

    if (argc != 3) {
        std::fprintf(stderr, "usage: crowd FIELD SCENARIO\n");
        return 2;
    }
    ff_error_clear(&err);
    ff_field_init(&field);
    ff_scenario_init(&scen);
    std::memset(&prof, 0, sizeof prof);
    FILE *in = ff_infile_open(argv[1], &err);
    if (!in)
        return fail(err);
    ff_reader_init(&reader, in, argv[1]);
    ff_status st = ff_field_select(&reader, NULL, &field, &err);
    ff_infile_close(in);
    if (st != FF_OK || !(in = ff_infile_open(argv[2], &err)))
        return fail(err);
    st = ff_scenario_read(in, argv[2], &field.grid, &scen, &err);
    ff_infile_close(in);
    if (st != FF_OK || ff_profiles_init_turn(&prof, &scen, &field.grid, field.turn, field.turn_cost,
                                             argv[2], &err) != FF_OK)
        return fail(err);
    ff_crowd *crowd = ff_crowd_new(&scen, &prof, 1, &err);
    if (!crowd)
        return fail(err);
    for (;;) {
        if (ff_crowd_step(crowd, &err) != FF_OK)
            return fail(err);
        long long t = ff_crowd_tick(crowd);
        if (t >= scen.ticks || ff_crowd_check_over(crowd))
            break;
    }
    long long t = ff_crowd_tick(crowd);
    for (size_t k = 0; k < ff_crowd_agent_count(crowd); k++) {
        ff_agent_view a;
        ff_crowd_agent(crowd, k, &a);
        if (in_trace(a, t))
            std::printf("%lld %u %.4f %.4f %s\n", t, a.id, a.x, a.y, ff_agent_state_name(a.state));
    }
    if (ff_crowd_summarise(crowd, &sum, &err) != FF_OK ||
        ff_crowd_write_summary(stderr, &sum, -1, &err) != FF_OK)
        return fail(err);
    ff_crowd_delete(crowd);
    ff_profiles_free(&prof);
    ff_scenario_free(&scen);
    ff_field_free(&field);
    return 0;
}
