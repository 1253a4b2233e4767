#pragma once
// English sentences that core writes (a point's stored validity notes, the capacity planner's texts) shown in
// the installed language: each known sentence form is matched back to its parts and the translated form is
// filled with them. ValidityNotes and CapacityNotes each list their own forms (their own translation
// context); the matching and filling is this one class. A text of no known form is returned as written. Any
// thread (QCoreApplication::translate).

#include <QRegularExpression>
#include <QString>

#include <span>
#include <utility>
#include <vector>

namespace Throughline {

// Marks capture group i (1-based) in SentenceForm::nested and SentenceForm::list.
constexpr unsigned captureBit(int i)
{
    return 1u << i;
}

struct SentenceForm {
    const char *pattern;  // anchored when compiled; capture group i fills %i
    const char *text;     // the English form (translation source), which reproduces the sentence exactly
    unsigned nested = 0u; // captures that are themselves a sentence of these forms, translated the same way
    unsigned list = 0u;   // captures that are "; "-joined sentences, each translated
};

class SentenceForms
{
public:
    // `forms` must outlive this object (they are static tables); a more specific form comes before the
    // general one it would otherwise fall under.
    SentenceForms(const char *context, std::span<const SentenceForm> forms);

    QString translate(const QString &text) const;
    bool known(const QString &text) const;

private:
    QString translateList(const QString &joined) const;

    const char *m_context;
    std::vector<std::pair<QRegularExpression, const SentenceForm *>> m_forms;
};

} // namespace Throughline
