#pragma once
// A point's validity notes (PointValidity::notes: stalls, slow replicas, telemetry scrape failures, ISL
// error, prompt counting) in the installed language. core writes them as English sentences into results.json
// and the history, so stored runs keep them as they were written; this maps each known sentence form back to
// its parts and fills the translated form (context Throughline::ValidityNotes). A note of no known form is
// shown as written. Any thread (QCoreApplication::translate).

#include <QString>

#include <string>

namespace Throughline {

class ValidityNotes
{
public:
    static QString translate(const std::string &note);
    // Whether the note matches one of the known forms (tests).
    static bool known(const std::string &note);
};

} // namespace Throughline
