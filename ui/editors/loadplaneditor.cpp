#include "ui/editors/loadplaneditor.h"

#include "ui/document/campaigndocument.h"
#include "ui/editors/fieldbinder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Throughline {

QString LoadPlanEditor::formatList(const std::vector<int> &v)
{
    QStringList s;
    for (int x : v)
        s << QString::number(x);
    return s.join(u", ");
}

QString LoadPlanEditor::formatList(const std::vector<double> &v)
{
    QStringList s;
    for (double x : v)
        s << QString::number(x);
    return s.join(u", ");
}

std::vector<int> LoadPlanEditor::parseInts(const QString &text)
{
    std::vector<int> v;
    for (const QString &t : text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int x = t.toInt(&ok);
        if (ok)
            v.push_back(x);
    }
    return v;
}

std::vector<double> LoadPlanEditor::parseDoubles(const QString &text)
{
    std::vector<double> v;
    for (const QString &t : text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double x = t.toDouble(&ok);
        if (ok)
            v.push_back(x);
    }
    return v;
}

LoadPlanEditor::LoadPlanEditor(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FieldBinder(document, this))
    , m_mode(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
{
    using P = LoadPlan;
    m_mode->setObjectName(QStringLiteral("planMode"));
    m_mode->addItem(tr("Closed loop: fixed concurrency points"), int(P::Mode::Closed));
    m_mode->addItem(tr("Open loop: fixed request rates"), int(P::Mode::Open));
    m_mode->addItem(tr("Curve: concurrency sweep"), int(P::Mode::Curve));
    m_mode->addItem(tr("Search: highest concurrency meeting the SLOs"), int(P::Mode::Search));
    m_binder->bindCombo(
        m_mode, QStringLiteral("/plan/mode"), tr("Change load-plan mode"),
        [](const Campaign &c) { return int(c.plan.mode); },
        [](Campaign &c, const int &v) { c.plan.mode = P::Mode(v); });

    auto spin = [this](QFormLayout *f, const QString &label, const QString &key, int lo, int hi,
                       int P::*field, const QString &tip = {}) {
        auto *w = new QSpinBox;
        w->setObjectName(u"plan_" + key);
        w->setRange(lo, hi);
        w->setToolTip(tip);
        f->addRow(label, w);
        m_binder->bindSpin(
            w, u"/plan/" + key, tr("Edit %1").arg(label),
            [field](const Campaign &c) { return c.plan.*field; },
            [field](Campaign &c, const int &v) { c.plan.*field = v; });
        return w;
    };
    auto dspin = [this](QFormLayout *f, const QString &label, const QString &key, double lo, double hi,
                        double P::*field, const QString &suffix = {}, const QString &tip = {}) {
        auto *w = new QDoubleSpinBox;
        w->setObjectName(u"plan_" + key);
        w->setRange(lo, hi);
        w->setDecimals(2);
        w->setSuffix(suffix);
        w->setToolTip(tip);
        f->addRow(label, w);
        m_binder->bindDouble(
            w, u"/plan/" + key, tr("Edit %1").arg(label),
            [field](const Campaign &c) { return c.plan.*field; },
            [field](Campaign &c, const double &v) { c.plan.*field = v; });
        return w;
    };

    // Closed loop
    auto *closed = new QWidget;
    auto *closedForm = new QFormLayout(closed);
    auto *conc = new QLineEdit;
    conc->setObjectName(QStringLiteral("plan_concurrencies"));
    conc->setPlaceholderText(QStringLiteral("1, 4, 16, 64"));
    closedForm->addRow(tr("Concurrencies"), conc);
    m_binder->bindLine(
        conc, QStringLiteral("/plan/concurrencies"), tr("Edit concurrencies"),
        [](const Campaign &c) { return formatList(c.plan.concurrencies); },
        [](Campaign &c, const QString &v) { c.plan.concurrencies = parseInts(v); });

    // Open loop
    auto *open = new QWidget;
    auto *openForm = new QFormLayout(open);
    auto *rates = new QLineEdit;
    rates->setObjectName(QStringLiteral("plan_rates"));
    rates->setPlaceholderText(QStringLiteral("1, 2.5, 5"));
    openForm->addRow(tr("Rates (requests/s)"), rates);
    m_binder->bindLine(
        rates, QStringLiteral("/plan/rates"), tr("Edit rates"),
        [](const Campaign &c) { return formatList(c.plan.rates); },
        [](Campaign &c, const QString &v) { c.plan.rates = parseDoubles(v); });
    auto *arrival = new QComboBox;
    arrival->setObjectName(QStringLiteral("plan_arrival"));
    arrival->addItem(tr("Poisson"), int(P::Arrival::Poisson));
    arrival->addItem(tr("Constant"), int(P::Arrival::Constant));
    arrival->addItem(tr("Gamma (burstiness)"), int(P::Arrival::Gamma));
    openForm->addRow(tr("Arrivals"), arrival);
    m_binder->bindCombo(
        arrival, QStringLiteral("/plan/arrival"), tr("Change arrival process"),
        [](const Campaign &c) { return int(c.plan.arrival); },
        [](Campaign &c, const int &v) { c.plan.arrival = P::Arrival(v); });
    dspin(openForm, tr("Burstiness"), QStringLiteral("burstiness"), 0.01, 100, &P::burstiness, {},
          tr("Gamma shape; 1 = Poisson, < 1 burstier"));
    spin(openForm, tr("Concurrency cap"), QStringLiteral("concurrency_cap"), 0, 10'000'000,
         &P::concurrencyCap, tr("0 = uncapped"));
    dspin(openForm, tr("Warm-up"), QStringLiteral("warmup_s"), 0, 1e6, &P::warmupS, tr(" s"));
    dspin(openForm, tr("Point duration"), QStringLiteral("point_duration_s"), 0, 1e7, &P::pointDurationS,
          tr(" s"), tr("0 = request count ÷ rate"));

    // Curve
    auto *curve = new QWidget;
    auto *curveForm = new QFormLayout(curve);
    auto *spacing = new QComboBox;
    spacing->setObjectName(QStringLiteral("plan_spacing"));
    spacing->addItem(tr("log2 steps"), int(P::CurveSpacing::Log2));
    spacing->addItem(tr("MLPerf Endpoints regions"), int(P::CurveSpacing::MlperfEndpoints));
    curveForm->addRow(tr("Spacing"), spacing);
    m_binder->bindCombo(
        spacing, QStringLiteral("/plan/spacing"), tr("Change curve spacing"),
        [](const Campaign &c) { return int(c.plan.spacing); },
        [](Campaign &c, const int &v) { c.plan.spacing = P::CurveSpacing(v); });
    spin(curveForm, tr("Minimum concurrency"), QStringLiteral("c_min"), 1, 10'000'000, &P::cMin);
    spin(curveForm, tr("Maximum concurrency"), QStringLiteral("c_max"), 1, 10'000'000, &P::cMax);

    // Search (shares c_min / c_max with the curve; separate widgets, same fields)
    auto *search = new QWidget;
    auto *searchForm = new QFormLayout(search);
    spin(searchForm, tr("Lowest concurrency"), QStringLiteral("c_min"), 1, 10'000'000, &P::cMin);
    spin(searchForm, tr("Highest concurrency"), QStringLiteral("c_max"), 1, 10'000'000, &P::cMax);
    spin(searchForm, tr("Maximum points"), QStringLiteral("search_max_points"), 1, 1000, &P::searchMaxPoints);

    for (QWidget *w : {closed, open, curve, search})
        m_pages->addWidget(w);
    connect(m_document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & CampaignDocument::Plan) {
            m_binder->refresh();
            m_pages->setCurrentIndex(int(m_document->campaign().plan.mode));
        }
    });

    auto *budget = new QGroupBox(tr("Per point"), this);
    auto *b = new QFormLayout(budget);
    spin(b, tr("Requests"), QStringLiteral("request_count"), 0, 1'000'000'000, &P::requestCount,
         tr("0 = multiplier × C"));
    dspin(b, tr("Request multiplier"), QStringLiteral("request_multiplier"), 0.1, 1e6, &P::requestMultiplier,
          tr(" × C"));
    spin(b, tr("Warm-up requests"), QStringLiteral("warmup_requests"), -1, 1'000'000'000, &P::warmupRequests,
         tr("-1 = warm-up multiplier × C"));
    dspin(b, tr("Warm-up multiplier"), QStringLiteral("warmup_multiplier"), 0, 1e6, &P::warmupMultiplier,
          tr(" × C"));
    dspin(b, tr("Ramp-up"), QStringLiteral("ramp_up_s"), 0, 1e6, &P::rampUpS, tr(" s"));
    dspin(b, tr("Cool-down"), QStringLiteral("cooldown_s"), 0, 1e6, &P::cooldownS, tr(" s"));
    dspin(b, tr("Minimum window"), QStringLiteral("min_window_s"), 0, 1e6, &P::minWindowS, tr(" s"),
          tr("Validity: a window shorter than max(this, 3 × median E2E) is flagged"));
    dspin(b, tr("Maximum duration"), QStringLiteral("max_duration_s"), 0.01, 1e7, &P::maxDurationS, tr(" s"));
    dspin(b, tr("Request timeout"), QStringLiteral("request_timeout_s"), 0.01, 1e6, &P::requestTimeoutS,
          tr(" s"));
    dspin(b, tr("Error-rate abort"), QStringLiteral("error_rate_limit"), 0.01, 1, &P::errorRateLimit, {},
          tr("Abort the point when this share of finished requests failed (after 20)"));
    spin(b, tr("Repeats"), QStringLiteral("repeats"), 1, 100, &P::repeats,
         tr("Runs of each load, back to back on fresh connections; the spread of the repeats gives an "
            "across-repeat interval, and verdicts use the wider of it and each run's own"));
    auto *level =
        dspin(b, tr("Confidence level"), QStringLiteral("confidence_level"), 0.5, 0.999, &P::confidenceLevel,
              {}, tr("Level of every point's confidence intervals (0.95 = 95 %)"));
    level->setDecimals(3); // then the range again: the 2-decimal range rounded 0.999 up
    level->setRange(0.5, 0.999);

    // Engine read order (LoadPlan::firstTokenPriority; docs/metrics.md "Clock and timestamps").
    auto *engine = new QGroupBox(tr("Client engine"), this);
    auto *e = new QFormLayout(engine);
    auto *priority = new QCheckBox(tr("Read first tokens first"));
    priority->setObjectName(QStringLiteral("plan_first_token_priority"));
    priority->setToolTip(
        tr("Reads requests still waiting for their first token ahead of the others: tighter TTFT. Its "
           "effect on later-token gaps at thousands of streams depends on the client's load; compare both "
           "settings when chunk-gap tails matter."));
    e->addRow(priority);
    m_binder->bindCheck(
        priority, QStringLiteral("/plan/first_token_priority"), tr("Change first-token read order"),
        [](const Campaign &c) { return c.plan.firstTokenPriority; },
        [](Campaign &c, const bool &v) { c.plan.firstTokenPriority = v; });

    auto *layout = new QVBoxLayout(this);
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(m_mode, 1);
    layout->addLayout(modeRow);
    layout->addWidget(m_pages);
    layout->addWidget(budget);
    layout->addWidget(engine);
    layout->addStretch();
    m_binder->refresh();
    m_pages->setCurrentIndex(int(document->campaign().plan.mode));
}

QWidget *LoadPlanEditor::widgetFor(const QString &pointer) const
{
    return pointer.startsWith(u"/plan") ? m_binder->widgetFor(pointer) : nullptr;
}

} // namespace Throughline
