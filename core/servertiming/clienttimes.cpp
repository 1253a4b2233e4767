#include "core/servertiming/clienttimes.h"

namespace Throughline {

ClientTimes clientTimesOf(const RequestRecord &r, const std::string &runId)
{
    ClientTimes c;
    c.requestId = runId + '-' + std::to_string(r.seq);
    c.seq = r.seq;
    c.tSched = r.tSched;
    c.tSend = r.tSend;
    c.tWire = r.tWire;
    c.tEnd = r.tEnd;
    c.nOut = r.nOut;
    c.ok = r.ok();
    for (const StreamEvent &e : r.events)
        if (e.kind == StreamEvent::Kind::Content) {
            if (c.tFirstToken < 0)
                c.tFirstToken = e.tNs;
            c.tLastToken = e.tNs;
        }
    return c;
}

std::vector<ClientTimes> clientTimesOf(const std::vector<RequestRecord> &records, const std::string &runId)
{
    std::vector<ClientTimes> out;
    out.reserve(records.size());
    for (const RequestRecord &r : records)
        out.push_back(clientTimesOf(r, runId));
    return out;
}

} // namespace Throughline
