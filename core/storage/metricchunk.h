#pragma once
// The columns HistoryReader::derivePoint reads of each request row (t_send_ns, t_end_ns, ttft_us, tpot_us,
// e2e_us, n_out, error_class != 0, flags & 1), packed per point and per write transaction into one blob of
// table request_metric_chunks (schema v3). Re-deriving a 1,000,000-request point then decodes ~20 MB of
// varints instead of walking 1,000,000 table rows through SQLite's record decoder (≈5× faster), while the
// writer pays a few bytes of encoding per row and one blob insert per transaction — unlike an index, nothing
// per row inside SQLite.
//
// Layout: byte 0 = format (1); per row one byte of bits (0 warm-up, 1 failed, 2..7: t_send, t_end, ttft,
// tpot, e2e, n_out present) then, for each present value, a zigzag LEB128 varint: t_send as the difference to
// the previous present t_send of the chunk, t_end relative to t_send (when present), the others as they are.
// Values are exactly those of the row (NULL = absent), so a derivation from chunks equals one from rows.
//
// Thread affinity: none (plain values).

#include <cstdint>
#include <string>

namespace Throughline {

struct MetricRow {
    bool warmup = false, failed = false;
    bool hasSend = false, hasEnd = false, hasTtft = false, hasTpot = false, hasE2e = false, hasNOut = false;
    std::int64_t tSendNs = 0, tEndNs = 0, ttftUs = 0, tpotUs = 0, e2eUs = 0, nOut = 0;
};

class MetricChunk
{
public:
    static constexpr std::uint8_t kFormat = 1;

    // Rows of one point in request id order (the ids are kept alongside, in the table).
    void append(const MetricRow &row);
    bool empty() const { return m_rows == 0; }
    std::int64_t rows() const { return m_rows; }
    const std::string &bytes() const { return m_bytes; }

    // Sequential reader over a blob; next() returns false at the end, valid() false when it ended early
    // (truncated or unknown format).
    class Reader
    {
    public:
        Reader(const void *data, std::size_t size);
        bool next(MetricRow &row);
        bool valid() const { return m_valid; }

    private:
        const std::uint8_t *m_p, *m_end;
        std::int64_t m_prevSend = 0;
        bool m_valid = true;
    };

private:
    std::string m_bytes;
    std::int64_t m_rows = 0;
    std::int64_t m_prevSend = 0;
};

} // namespace Throughline
