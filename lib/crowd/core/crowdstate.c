/* crowdstate.c - the trace's names of the agents' states; see
 * crowdstate.h. */
#include "crowdstate.h"

const char *ff_agent_state_name(int state)
{
    switch (state) {
    case FF_AGENT_MOVING: return "moving";
    case FF_AGENT_ESCAPING: return "escaping";
    case FF_AGENT_STUCK: return "stuck";
    case FF_AGENT_WAITING_FIELD: return "waiting-field";
    case FF_AGENT_FALLBACK: return "fallback";
    case FF_AGENT_DEADLOCKED: return "deadlocked";
    case FF_AGENT_ARRIVED:
    case FF_AGENT_GONE: return "arrived";
    default: return "unborn";
    }
}
