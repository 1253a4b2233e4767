#pragma once
// Value-or-error type used by every core API (GCC 12 has no std::expected).
// Exceptions stay inside a module; callers receive a Result and decide how to show failures.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace Throughline {

enum class ErrorCode {
    InvalidInput, // bad user input: file, field, flag (CLI exit code 2)
    Unsupported,  // a newer schema version, an unknown format
    NotFound,     // a file, a run id, a catalog entry
    Io,           // reading or writing a file
    Network,      // endpoint unreachable, HTTP failure
    Storage,      // SQLite errors, read-only or full disk
    Cancelled,    // the user asked to stop
    Internal      // a broken invariant
};

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message; // human readable, names the problem and where it is
};

template <typename T>
class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_v(std::move(value))
    {
    }
    Result(Error error)
        : m_v(std::move(error))
    {
    }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() &
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    const T &value() const &
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    T &&value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_v));
    }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Error &error() const
    {
        assert(!ok());
        return std::get<1>(m_v);
    }

private:
    std::variant<T, Error> m_v;
};

// Result<void> equivalent.
struct Ok {
};
using Status = Result<Ok>;

inline Error makeError(ErrorCode code, std::string message)
{
    return Error{code, std::move(message)};
}

} // namespace Throughline
