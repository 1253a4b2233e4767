#include "ui/plots/breakdownparts.h"

namespace Throughline {

QString BreakdownParts::name(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::ClientQueue:
        return tr("client queue");
    case BreakdownPart::ConnectSend:
        return tr("connect and send");
    case BreakdownPart::NetworkUp:
        return tr("network to server");
    case BreakdownPart::ServerFront:
        return tr("server front end");
    case BreakdownPart::ServerQueue:
        return tr("server queue");
    case BreakdownPart::Prefill:
        return tr("prefill");
    case BreakdownPart::KvTransfer:
        return tr("KV transfer");
    case BreakdownPart::NetworkDown:
        return tr("network to client and read");
    case BreakdownPart::Decode:
        return tr("decode");
    case BreakdownPart::StreamTail:
        return tr("stream tail");
    case BreakdownPart::Unattributed:
        return tr("unattributed");
    }
    return {};
}

int BreakdownParts::colorIndex(BreakdownPart part)
{
    static const int index[kBreakdownParts] = {7, 4, 6, 3, 1, 0, 5, 6, 2, 4, 7};
    return index[int(part)];
}

QString BreakdownParts::statusName(PartStatus status)
{
    switch (status) {
    case PartStatus::Measured:
        return tr("measured");
    case PartStatus::Derived:
        return tr("derived");
    case PartStatus::Unknown:
        return tr("unknown");
    }
    return {};
}

} // namespace Throughline
