// Phase timings of a finished transfer (workertransfer.h): libcurl's, or the direct path's from the worker's
// own timestamps.
#include "core/engine/workertransfer.h"

namespace Throughline {

// The response's status, protocol and libcurl's phase timings, from the transfer's easy handle.
void curlTimings(Worker::Transfer &t)
{
    RequestRecord &r = t.record;
    long code = 0;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &code);
    r.httpStatus = static_cast<int>(code);
    auto timing = [&](CURLINFO info) {
        curl_off_t us = 0;
        if (curl_easy_getinfo(t.easy, info, &us) != CURLE_OK || us <= 0)
            return kNoTime;
        return static_cast<std::int64_t>(us) * 1000;
    };
    r.curl.connectNs = timing(CURLINFO_CONNECT_TIME_T);
    r.curl.appConnectNs = timing(CURLINFO_APPCONNECT_TIME_T);
    r.curl.preTransferNs = timing(CURLINFO_PRETRANSFER_TIME_T);
    r.curl.startTransferNs = timing(CURLINFO_STARTTRANSFER_TIME_T);
    r.curl.totalNs = timing(CURLINFO_TOTAL_TIME_T);
    long version = 0;
    curl_easy_getinfo(t.easy, CURLINFO_HTTP_VERSION, &version);
    r.httpVersion = version == CURL_HTTP_VERSION_1_0   ? 10
                    : version == CURL_HTTP_VERSION_1_1 ? 11
                    : version == CURL_HTTP_VERSION_2_0 ? 20
                    : version == CURL_HTTP_VERSION_3   ? 30
                                                       : 0;
}

// The same figures on the direct path, from the worker's own timestamps (libcurl's meaning: each from the
// hand-off; connect only for a request that opened its connection, set when it connected).
void directTimings(Worker::Transfer &t)
{
    RequestRecord &r = t.record;
    r.httpStatus = t.http.status();
    r.httpVersion = t.http.status() == 0 ? 0 : t.http.minorVersion() == 0 ? 10 : 11;
    auto since = [&](std::int64_t ns) {
        return ns == kNoTime || r.tSend == kNoTime ? kNoTime : ns - r.tSend;
    };
    r.curl.preTransferNs = since(r.tWire);
    r.curl.startTransferNs = since(t.firstResponseByteNs);
    r.curl.totalNs = since(r.tEnd);
}

} // namespace Throughline
