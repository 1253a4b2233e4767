#pragma once
// The capacity planner's sentences (core/capacity: tier checks, the binding constraint, "no deployment meets
// this tier; the closest is …", price, power, demand and tier errors, what-if band sources) in the installed
// language. core writes them in English for the CLI; the Plan page and the report's "Capacity and cost"
// section map each known sentence form back to its parts and fill the translated form (context
// Throughline::CapacityNotes), the way ValidityNotes does for stored notes. A text of no known form is shown
// as written. Any thread (QCoreApplication::translate).

#include <QString>

#include <string>

namespace Throughline {

class CapacityNotes
{
public:
    static QString translate(const std::string &text);
    static QString translate(const QString &text);
    // Whether the text matches one of the known forms (tests).
    static bool known(const std::string &text);
};

} // namespace Throughline
