#pragma once
// The metric vocabulary of resources/catalog/metric_definitions.json in the installed language: the
// catalogue's English texts are the translation sources (context Throughline::MetricTexts, listed in
// metrictexts.cpp so lupdate finds them). A text the catalogue gains without an entry there stays English;
// tst_reportwriter::germanMetricDefinitions fails then. Any thread (QCoreApplication::translate).

#include <QString>

#include <string>

namespace Throughline {

class MetricTexts
{
public:
    // label, unit, the one-sentence definition (the file's "tooltip") or a stat's meaning, translated.
    static QString translate(const std::string &english);
    // Whether the catalogue text has an entry to translate (tests).
    static bool known(const std::string &english);
};

} // namespace Throughline
