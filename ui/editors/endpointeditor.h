#pragma once
// Endpoints: where requests go. A list of endpoints and a form for the selected one (URLs and
// routing, API flavour, served model, API-key *reference*, extra headers / body, simulator options,
// which scenarios it serves, the server's per-request timing) plus "Test connection" (GET /v1/models). GUI
// thread only.

#include "core/campaign/campaign.h"

#include <QWidget>

#include <functional>

class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QNetworkAccessManager;
class QPlainTextEdit;
class QPushButton;

namespace Throughline {

class CampaignDocument;
class FieldBinder;

class EndpointEditor : public QWidget
{
    Q_OBJECT
public:
    explicit EndpointEditor(CampaignDocument *document, QWidget *parent = nullptr);

    int currentEndpoint() const;
    void setCurrentEndpoint(int index);
    QWidget *widgetFor(const QString &pointer) const;

public slots:
    // Sends GET <base>/v1/models with the key from the referenced environment variable (read now,
    // never stored) and shows the answer. The only network call the UI makes itself: core has no
    // probe API yet, and a single GET needs none of the engine's machinery.
    void testConnection();

signals:
    void connectionTested(bool ok, const QString &summary);

private:
    using EndpointGetter = std::function<Endpoint(const Campaign &)>;
    using EndpointChanger = std::function<void(Campaign &, const std::function<void(Endpoint &)> &)>;
    void refresh();
    void addServerTimingRows(QFormLayout *form, const EndpointGetter &get, const EndpointChanger &with);
    QLineEdit *addLine(QFormLayout *form, const EndpointGetter &get, const EndpointChanger &with,
                       const QString &label, const QString &key, const QString &placeholder,
                       const std::function<std::string &(Endpoint &)> &field);

    CampaignDocument *m_document;
    FieldBinder *m_binder;
    QListWidget *m_list;
    QWidget *m_form;
    QPushButton *m_testButton;
    QPlainTextEdit *m_testResult;
    QNetworkAccessManager *m_nam = nullptr;
};

} // namespace Throughline
