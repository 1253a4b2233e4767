#include "ui/editors/endpointeditor.h"

#include "ui/document/campaigndocument.h"
#include "ui/editors/fieldbinder.h"

#include "core/campaign/timingformat.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace Throughline {

namespace {

QString joinLines(const std::vector<std::string> &v)
{
    QStringList l;
    for (const auto &s : v)
        l << QString::fromStdString(s);
    return l.join(u'\n');
}

std::vector<std::string> splitLines(const QString &text)
{
    std::vector<std::string> v;
    for (const QString &l : text.split(u'\n', Qt::SkipEmptyParts))
        if (!l.trimmed().isEmpty())
            v.push_back(l.trimmed().toStdString());
    return v;
}

QString matchText(const std::map<std::string, std::vector<std::string>> &m)
{
    QStringList parts;
    for (const auto &[k, globs] : m)
        for (const auto &g : globs)
            parts << QString::fromStdString(k) + u'=' + QString::fromStdString(g);
    return parts.join(u',');
}

std::map<std::string, std::vector<std::string>> parseMatch(const QString &text)
{
    std::map<std::string, std::vector<std::string>> m;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(u'=');
        if (eq <= 0)
            continue; // the validator reports malformed rules when they reach the JSON form
        m[part.left(eq).trimmed().toStdString()].push_back(part.mid(eq + 1).trimmed().toStdString());
    }
    return m;
}

} // namespace

// Server timing (docs/server-timing.md): off, the backend preset's format, or one named; the URL for
// TensorRT-LLM's /perf_metrics elsewhere than on the base URL, the file of Dynamo's request trace.
void EndpointEditor::addServerTimingRows(QFormLayout *form, const EndpointGetter &get,
                                         const EndpointChanger &with)
{
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k{"", "auto"};
        for (const TimingFormatInfo &f : timingFormats())
            k.emplace_back(f.key);
        return k;
    }();
    auto *format = new QComboBox(m_form);
    format->setObjectName(QStringLiteral("endpoint_server_timing_format"));
    format->addItem(tr("Off"), 0); // item data = the index into `keys`
    format->addItem(tr("As the backend preset publishes it"), 1);
    for (const TimingFormatInfo &f : timingFormats())
        format->addItem(QString::fromLatin1(f.display), format->count());
    format->setToolTip(tr("The server's own per-request timing, joined to each request: where the time goes "
                          "(History, report, show --breakdown). The server must publish it (e.g. vLLM "
                          "--enable-per-request-metrics)."));
    form->addRow(tr("Server timing"), format);
    m_binder->bindCombo(
        format, QStringLiteral("/endpoints/%1/server_timing/format"), tr("Change server timing"),
        [get](const Campaign &c) {
            const auto it = std::find(keys.begin(), keys.end(), get(c).serverTiming.format);
            return it == keys.end() ? 0 : int(it - keys.begin());
        },
        [with](Campaign &c, const int &v) {
            with(c, [&](Endpoint &e) { e.serverTiming.format = keys.at(size_t(std::max(0, v))); });
        });
    addLine(form, get, with, tr("Timing URL"), QStringLiteral("server_timing/url"),
            tr("TensorRT-LLM: empty = <base URL>/perf_metrics"),
            [](Endpoint &e) -> std::string & { return e.serverTiming.url; });
    addLine(form, get, with, tr("Timing file"), QStringLiteral("server_timing/file"),
            tr("Dynamo request trace (JSONL)"),
            [](Endpoint &e) -> std::string & { return e.serverTiming.file; });
}

// A text field of the selected endpoint: `key` is its JSON path below the endpoint ("base_url",
// "server_timing/url"), which also names the widget ("endpoint_server_timing_url").
QLineEdit *EndpointEditor::addLine(QFormLayout *form, const EndpointGetter &get, const EndpointChanger &with,
                                   const QString &label, const QString &key, const QString &placeholder,
                                   const std::function<std::string &(Endpoint &)> &field)
{
    auto *w = new QLineEdit(m_form);
    w->setObjectName(u"endpoint_" + QString(key).replace(u'/', u'_'));
    w->setPlaceholderText(placeholder);
    form->addRow(label, w);
    m_binder->bindLine(
        w, u"/endpoints/%1/" + key, tr("Edit endpoint %1").arg(label),
        [get, field](const Campaign &c) {
            Endpoint e = get(c);
            return QString::fromStdString(field(e));
        },
        [with, field](Campaign &c, const QString &v) {
            with(c, [&](Endpoint &e) { field(e) = v.trimmed().toStdString(); });
        });
    return w;
}

EndpointEditor::EndpointEditor(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FieldBinder(document, this))
    , m_list(new QListWidget(this))
    , m_form(new QWidget(this))
    , m_testButton(new QPushButton(tr("Test connection"), this))
    , m_testResult(new QPlainTextEdit(this))
{
    m_list->setObjectName(QStringLiteral("endpointList"));
    m_binder->setIndexProvider([this] { return currentEndpoint(); });
    auto add = new QPushButton(tr("Add"), this);
    auto remove = new QPushButton(tr("Remove"), this);
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    leftLayout->addLayout(buttons);

    // Getter / setter helpers on the selected endpoint; a missing endpoint reads defaults and
    // ignores writes (the form is disabled then).
    auto get = [this](const Campaign &c) -> Endpoint {
        const int i = currentEndpoint();
        return i >= 0 && i < int(c.endpoints.size()) ? c.endpoints[size_t(i)] : Endpoint{};
    };
    auto with = [this](Campaign &c, const std::function<void(Endpoint &)> &fn) {
        const int i = currentEndpoint();
        if (i >= 0 && i < int(c.endpoints.size()))
            fn(c.endpoints[size_t(i)]);
    };
    auto *form = new QFormLayout(m_form);
    auto line = [&](const QString &label, const QString &key, const QString &placeholder,
                    std::function<std::string &(Endpoint &)> field) {
        return addLine(form, get, with, label, key, placeholder, field);
    };
    line(tr("Name"), QStringLiteral("name"), {}, [](Endpoint &e) -> std::string & { return e.name; });
    auto *kind = new QComboBox(m_form);
    kind->setObjectName(QStringLiteral("endpoint_kind"));
    kind->addItem(tr("HTTP (OpenAI-compatible server)"), int(Endpoint::Kind::Http));
    kind->addItem(tr("Simulated (built-in)"), int(Endpoint::Kind::Simulated));
    form->addRow(tr("Kind"), kind);
    m_binder->bindCombo(
        kind, QStringLiteral("/endpoints/%1/kind"), tr("Change endpoint kind"),
        [get](const Campaign &c) { return int(get(c).kind); },
        [with](Campaign &c, const int &v) { with(c, [&](Endpoint &e) { e.kind = Endpoint::Kind(v); }); });
    line(tr("Base URL"), QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:8000"),
         [](Endpoint &e) -> std::string & { return e.baseUrl; });
    auto *replicas = new QPlainTextEdit(m_form);
    replicas->setObjectName(QStringLiteral("endpoint_replica_urls"));
    replicas->setPlaceholderText(tr("Optional replica URLs, one per line"));
    replicas->setMaximumHeight(60);
    form->addRow(tr("Replica URLs"), replicas);
    m_binder->bindText(
        replicas, QStringLiteral("/endpoints/%1/replica_urls"), tr("Edit replica URLs"),
        [get](const Campaign &c) { return joinLines(get(c).replicaUrls); },
        [with](Campaign &c, const QString &v) {
            with(c, [&](Endpoint &e) { e.replicaUrls = splitLines(v); });
        });
    auto *routing = new QComboBox(m_form);
    routing->setObjectName(QStringLiteral("endpoint_routing"));
    routing->addItem(tr("Round robin"), int(Endpoint::Routing::RoundRobin));
    routing->addItem(tr("Least in flight"), int(Endpoint::Routing::LeastInFlight));
    form->addRow(tr("Routing"), routing);
    m_binder->bindCombo(
        routing, QStringLiteral("/endpoints/%1/routing"), tr("Change routing"),
        [get](const Campaign &c) { return int(get(c).routing); },
        [with](Campaign &c, const int &v) {
            with(c, [&](Endpoint &e) { e.routing = Endpoint::Routing(v); });
        });
    auto *flavour = new QComboBox(m_form);
    flavour->setObjectName(QStringLiteral("endpoint_flavour"));
    flavour->addItem(tr("Chat completions (/v1/chat/completions)"), int(ApiFlavour::Chat));
    flavour->addItem(tr("Completions (/v1/completions)"), int(ApiFlavour::Completions));
    form->addRow(tr("API flavour"), flavour);
    m_binder->bindCombo(
        flavour, QStringLiteral("/endpoints/%1/flavour"), tr("Change API flavour"),
        [get](const Campaign &c) { return int(get(c).flavour); },
        [with](Campaign &c, const int &v) { with(c, [&](Endpoint &e) { e.flavour = ApiFlavour(v); }); });
    line(tr("Served model"), QStringLiteral("served_model"), tr("empty = the scenario's model name"),
         [](Endpoint &e) -> std::string & { return e.servedModel; });
    auto *keyEnv =
        line(tr("API key variable"), QStringLiteral("api_key_env"), QStringLiteral("OPENAI_API_KEY"),
             [](Endpoint &e) -> std::string & { return e.apiKeyEnv; });
    keyEnv->setToolTip(
        tr("Name of the environment variable that holds the key. The key itself is never saved."));
    auto *keyring =
        line(tr("API key keyring entry"), QStringLiteral("api_key_keyring"), tr("secret-tool entry name"),
             [](Endpoint &e) -> std::string & { return e.apiKeyKeyring; });
    keyring->setToolTip(
        tr("Keyring entry looked up at run time (secret-tool). The key itself is never saved."));
    auto *headers = new QPlainTextEdit(m_form);
    headers->setObjectName(QStringLiteral("endpoint_headers"));
    headers->setPlaceholderText(tr("Extra headers, one per line: Name: value"));
    headers->setMaximumHeight(60);
    form->addRow(tr("Extra headers"), headers);
    m_binder->bindText(
        headers, QStringLiteral("/endpoints/%1/headers"), tr("Edit extra headers"),
        [get](const Campaign &c) {
            QStringList l;
            for (const auto &[k, v] : get(c).extraHeaders)
                l << QString::fromStdString(k) + u": " + QString::fromStdString(v);
            return l.join(u'\n');
        },
        [with](Campaign &c, const QString &text) {
            with(c, [&](Endpoint &e) {
                e.extraHeaders.clear();
                for (const QString &l : text.split(u'\n', Qt::SkipEmptyParts)) {
                    const qsizetype colon = l.indexOf(u':');
                    if (colon > 0)
                        e.extraHeaders[l.left(colon).trimmed().toStdString()] =
                            l.mid(colon + 1).trimmed().toStdString();
                }
            });
        });
    auto *body = new QPlainTextEdit(m_form);
    body->setObjectName(QStringLiteral("endpoint_extra_body"));
    body->setPlaceholderText(tr("Extra body fields as a JSON object, e.g. {\"temperature\": 0}"));
    body->setMaximumHeight(60);
    form->addRow(tr("Extra body"), body);
    m_binder->bindText(
        body, QStringLiteral("/endpoints/%1/extra_body"), tr("Edit extra body"),
        [get](const Campaign &c) {
            const auto &j = get(c).extraBody;
            return j.empty() ? QString() : QString::fromStdString(j.dump());
        },
        [with](Campaign &c, const QString &text) {
            const nlohmann::json j = text.trimmed().isEmpty()
                                         ? nlohmann::json::object()
                                         : nlohmann::json::parse(text.toStdString(), nullptr, false);
            if (j.is_discarded() || !j.is_object())
                return; // keeps the previous value; the field stays as typed until corrected
            with(c, [&](Endpoint &e) { e.extraBody = j; });
        });
    addServerTimingRows(form, get, with);
    // "match" is a map of globs: edited as key=glob,… text, committed on editingFinished.
    auto *match = new QLineEdit(m_form);
    match->setObjectName(QStringLiteral("endpoint_match"));
    match->setPlaceholderText(tr("key=glob,… (empty = every scenario)"));
    form->addRow(tr("Serves"), match);
    m_binder->bindLine(
        match, QStringLiteral("/endpoints/%1/match"), tr("Edit endpoint scenarios"),
        [get](const Campaign &c) { return matchText(get(c).match); },
        [with](Campaign &c, const QString &v) { with(c, [&](Endpoint &e) { e.match = parseMatch(v); }); });
    auto *timeScale = new QDoubleSpinBox(m_form);
    timeScale->setObjectName(QStringLiteral("endpoint_sim_time_scale"));
    timeScale->setRange(0.01, 1000);
    timeScale->setToolTip(tr("Simulator time scale: > 1 runs faster than real time"));
    form->addRow(tr("Simulator time scale"), timeScale);
    m_binder->bindDouble(
        timeScale, QStringLiteral("/endpoints/%1/sim/time_scale"), tr("Edit simulator time scale"),
        [get](const Campaign &c) { return get(c).sim.timeScale; },
        [with](Campaign &c, const double &v) { with(c, [&](Endpoint &e) { e.sim.timeScale = v; }); });
    auto *jitter = new QDoubleSpinBox(m_form);
    jitter->setObjectName(QStringLiteral("endpoint_sim_jitter"));
    jitter->setRange(0, 1);
    jitter->setSingleStep(0.01);
    form->addRow(tr("Simulator jitter"), jitter);
    m_binder->bindDouble(
        jitter, QStringLiteral("/endpoints/%1/sim/jitter"), tr("Edit simulator jitter"),
        [get](const Campaign &c) { return get(c).sim.jitter; },
        [with](Campaign &c, const double &v) { with(c, [&](Endpoint &e) { e.sim.jitter = v; }); });

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_form);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setReadOnly(true);
    m_testResult->setMaximumHeight(90);
    m_testResult->setPlaceholderText(tr("GET /v1/models answer appears here"));
    rightLayout->addWidget(m_testButton, 0, Qt::AlignLeft);
    rightLayout->addWidget(m_testResult);
    rightLayout->addStretch();

    auto *split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    (new QVBoxLayout(this))->addWidget(split);

    connect(m_testButton, &QPushButton::clicked, this, &EndpointEditor::testConnection);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        m_binder->refresh();
        m_form->setEnabled(currentEndpoint() >= 0);
    });
    connect(add, &QPushButton::clicked, this, [this] {
        const int n = int(m_document->campaign().endpoints.size());
        m_document->edit(tr("Add endpoint"), [n](Campaign &c) {
            Endpoint e;
            e.name = "endpoint" + std::to_string(n + 1);
            e.baseUrl = "http://127.0.0.1:8000";
            c.endpoints.push_back(e);
        });
        m_list->setCurrentRow(n);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int i = currentEndpoint();
        m_document->edit(tr("Remove endpoint"), [i](Campaign &c) {
            if (i >= 0 && i < int(c.endpoints.size()))
                c.endpoints.erase(c.endpoints.begin() + i);
        });
    });
    connect(document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & CampaignDocument::Endpoints)
            refresh();
    });
    refresh();
}

int EndpointEditor::currentEndpoint() const
{
    return m_list->currentRow();
}

void EndpointEditor::setCurrentEndpoint(int index)
{
    m_list->setCurrentRow(index);
}

void EndpointEditor::refresh()
{
    const auto &eps = m_document->campaign().endpoints;
    {
        const QSignalBlocker b(m_list);
        const int cur = m_list->currentRow();
        m_list->clear();
        for (const Endpoint &e : eps)
            m_list->addItem(e.kind == Endpoint::Kind::Simulated
                                ? tr("%1 (simulated)").arg(QString::fromStdString(e.name))
                                : QString::fromStdString(e.name));
        m_list->setCurrentRow(eps.empty() ? -1 : qBound(0, cur, int(eps.size()) - 1));
    }
    m_form->setEnabled(currentEndpoint() >= 0);
    m_binder->refresh();
}

QWidget *EndpointEditor::widgetFor(const QString &pointer) const
{
    if (!pointer.startsWith(u"/endpoints"))
        return nullptr;
    if (QWidget *w = m_binder->widgetFor(pointer))
        return w;
    return m_list;
}

void EndpointEditor::testConnection()
{
    const int i = currentEndpoint();
    const auto &eps = m_document->campaign().endpoints;
    if (i < 0 || i >= int(eps.size()))
        return;
    const Endpoint &e = eps[size_t(i)];
    if (e.kind == Endpoint::Kind::Simulated) {
        const QString msg =
            tr("Simulated endpoint: started on 127.0.0.1 when the run starts; nothing to test.");
        m_testResult->setPlainText(msg);
        emit connectionTested(true, msg);
        return;
    }
    QString base = QString::fromStdString(e.baseUrl);
    while (base.endsWith(u'/'))
        base.chop(1);
    const QUrl url(base + u"/v1/models");
    if (!url.isValid() || url.scheme().isEmpty()) {
        const QString msg = tr("Invalid base URL “%1”").arg(base);
        m_testResult->setPlainText(msg);
        emit connectionTested(false, msg);
        return;
    }
    if (!m_nam)
        m_nam = new QNetworkAccessManager(this);
    QNetworkRequest req(url);
    req.setTransferTimeout(int(e.connectTimeoutS * 1000));
    if (!e.apiKeyEnv.empty()) {
        const QByteArray key = qgetenv(e.apiKeyEnv.c_str()); // read now, never stored
        if (!key.isEmpty())
            req.setRawHeader("Authorization", "Bearer " + key);
    }
    for (const auto &[k, v] : e.extraHeaders)
        req.setRawHeader(QByteArray::fromStdString(k), QByteArray::fromStdString(v));
    m_testButton->setEnabled(false);
    m_testResult->setPlainText(tr("GET %1 …").arg(url.toString()));
    QNetworkReply *reply = m_nam->get(req);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        m_testButton->setEnabled(true);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        bool ok = reply->error() == QNetworkReply::NoError;
        QString summary;
        if (!ok) {
            summary = tr("%1 failed: %2").arg(url.toString(), reply->errorString());
        } else {
            QStringList ids;
            const QJsonDocument doc = QJsonDocument::fromJson(body);
            const QJsonArray data = doc.object().value(u"data").toArray();
            for (const QJsonValue &m : data)
                ids << m.toObject().value(u"id").toString();
            summary = ids.isEmpty() ? tr("HTTP %1, no models listed").arg(status)
                                    : tr("HTTP %1, models: %2").arg(status).arg(ids.join(u", "));
        }
        m_testResult->setPlainText(summary + u"\n\n" + QString::fromUtf8(body.left(2000)));
        emit connectionTested(ok, summary);
    });
}

} // namespace Throughline
