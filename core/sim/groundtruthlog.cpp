#include "core/sim/groundtruthlog.h"

#include <cerrno>
#include <cstring>

namespace Throughline {

GroundTruthLog::~GroundTruthLog()
{
    close();
}

Status GroundTruthLog::open(const std::string &path)
{
    std::lock_guard lk(m_mu);
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file)
        return makeError(ErrorCode::Io,
                         "cannot write ground-truth log " + path + ": " + std::strerror(errno));
    return Ok{};
}

void GroundTruthLog::append(const std::string &line, bool flushNow)
{
    std::lock_guard lk(m_mu);
    if (!m_file)
        return;
    std::fwrite(line.data(), 1, line.size(), m_file);
    std::fputc('\n', m_file);
    if (flushNow)
        std::fflush(m_file); // a reader follows the file while the server runs (Dynamo's request trace)
}

void GroundTruthLog::close()
{
    std::lock_guard lk(m_mu);
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
    }
}

} // namespace Throughline
