<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>Throughline::CampaignDocument</name>
    <message>
        <source>Untitled campaign</source>
        <translation>Unbenannte Kampagne</translation>
    </message>
</context>
<context>
    <name>Throughline::ChartView</name>
    <message>
        <source>unsupported plot format &quot;%1&quot; (use .png, .svg or .pdf)</source>
        <translation>Nicht unterstütztes Diagrammformat „%1“ (.png, .svg oder .pdf verwenden)</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Nothing to show yet.</source>
        <translation>Noch nichts anzuzeigen.</translation>
    </message>
</context>
<context>
    <name>Throughline::CheckableListModel</name>
    <message>
        <source>%1 (custom)</source>
        <translation>%1 (benutzerdefiniert)</translation>
    </message>
</context>
<context>
    <name>Throughline::ComparisonComposer</name>
    <message>
        <source>Out tok/s/GPU</source>
        <translation>Ausg. Tok./s/GPU</translation>
    </message>
    <message>
        <source>TTFT p90 ms</source>
        <translation>TTFT p90 ms</translation>
    </message>
    <message>
        <source>TPOT p90 ms</source>
        <translation>TPOT p90 ms</translation>
    </message>
    <message>
        <source>Goodput req/s</source>
        <translation>Goodput Anfr./s</translation>
    </message>
    <message>
        <source>Comparison report: %1</source>
        <translation>Vergleichsbericht: %1</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Candidate %1</source>
        <translation>Kandidat %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: run %2 · %3 · started %4 UTC · %n scenario(s)</source>
        <translation>
            <numerusform>%1: Lauf %2 · %3 · gestartet %4 UTC · %n Szenario</numerusform>
            <numerusform>%1: Lauf %2 · %3 · gestartet %4 UTC · %n Szenarien</numerusform>
        </translation>
    </message>
    <message>
        <source>Deltas per metric at the operating points</source>
        <translation>Differenzen je Metrik an den Betriebspunkten</translation>
    </message>
    <message>
        <source>No scenario has an operating point in both the baseline and a candidate.</source>
        <translation>Kein Szenario hat sowohl in der Referenz als auch in einem Kandidaten einen Betriebspunkt.</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>Δ %</source>
        <translation>Δ %</translation>
    </message>
    <message>
        <source>%1: only in the baseline</source>
        <translation>%1: nur in der Referenz</translation>
    </message>
    <message>
        <source>%1: only in candidate %2</source>
        <translation>%1: nur in Kandidat %2</translation>
    </message>
    <message>
        <source>Verdicts</source>
        <translation>Urteile</translation>
    </message>
    <message>
        <source>Baseline verdict</source>
        <translation>Urteil Referenz</translation>
    </message>
    <message>
        <source>Candidate verdict</source>
        <translation>Urteil Kandidat</translation>
    </message>
    <message>
        <source>Frontiers, every run overlaid</source>
        <translation>Leitkurven, alle Läufe übereinander</translation>
    </message>
    <message>
        <source>Baseline solid, first candidate dashed, further candidates dotted; one colour per deployment.</source>
        <translation>Referenz durchgezogen, erster Kandidat gestrichelt, weitere Kandidaten gepunktet; eine Farbe je Deployment.</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Baseline %1</source>
        <translation>Referenz %1</translation>
    </message>
    <message>
        <source>(absent)</source>
        <translation>(fehlt)</translation>
    </message>
    <message>
        <source>What changed in the environment</source>
        <translation>Was sich in der Umgebung geändert hat</translation>
    </message>
    <message>
        <source>The recorded environment (engine, host, servers) is the same in every run.</source>
        <translation>Die aufgezeichnete Umgebung (Engine, Rechner, Server) ist in allen Läufen gleich.</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>Whether a run changed is judged beyond the runs&apos; noise from their confidence intervals, as throughline-cli compare does; the deltas at the operating points follow as plain numbers.</source>
        <translation>Ob sich ein Lauf verändert hat, wird wie bei throughline-cli compare aus den Konfidenzintervallen der Läufe jenseits ihres Rauschens beurteilt; die Differenzen an den Betriebspunkten folgen als reine Zahlen.</translation>
    </message>
    <message>
        <source>regressed</source>
        <translation>verschlechtert</translation>
    </message>
    <message>
        <source>improved</source>
        <translation>verbessert</translation>
    </message>
    <message>
        <source>within noise</source>
        <translation>im Rauschen</translation>
    </message>
    <message>
        <source>not enough data</source>
        <translation>zu wenige Daten</translation>
    </message>
    <message>
        <source>Changes beyond noise</source>
        <translation>Änderungen jenseits des Rauschens</translation>
    </message>
    <message>
        <source>Each metric (%1) at each load point both runs measured is one test of the change candidate ÷ baseline − 1, from the two runs&apos; %2 % intervals and a %3 % noise floor per run; Holm&apos;s rule over all of a candidate&apos;s tests keeps the chance of any false regressed or improved at %4 %. An open interval (too few requests) is not enough data. Values: estimate [lower, upper].</source>
        <translation>Jede Metrik (%1) an jedem Lastpunkt, den beide Läufe gemessen haben, ist ein Test der Änderung Kandidat ÷ Referenz − 1, aus den %2-%-Intervallen beider Läufe und %3 % Grundrauschen je Lauf; Holms Regel über alle Tests eines Kandidaten hält die Wahrscheinlichkeit eines falschen „verschlechtert“ oder „verbessert“ bei %4 %. Ein offenes Intervall (zu wenige Anfragen) bedeutet zu wenige Daten. Werte: Schätzung [untere, obere Grenze].</translation>
    </message>
    <message>
        <source>Candidate %1: %2 — %3 regressed, %4 improved, %5 within noise, %6 without enough data over %7 shared load points.</source>
        <translation>Kandidat %1: %2 — %3 verschlechtert, %4 verbessert, %5 im Rauschen, %6 mit zu wenigen Daten über %7 gemeinsame Lastpunkte.</translation>
    </message>
    <message>
        <source>%1 comparisons within noise are not listed.</source>
        <translation>%1 Vergleiche im Rauschen sind nicht aufgeführt.</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Change %</source>
        <translation>Änderung %</translation>
    </message>
    <message>
        <source>Interval %</source>
        <translation>Intervall %</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>MLPerf Endpoints frontiers against the baseline</source>
        <translation>MLPerf-Endpoints-Fronten gegen die Referenz</translation>
    </message>
    <message>
        <source>The official frontier of each run (system tokens/s against tokens/s per user = 1000 / p90 of TPOT without TTFT, a step function of the valid points): its area over the interactivity both curves cover, and its throughput at round interactivity levels inside that range. Share = candidate ÷ baseline.</source>
        <translation>Die offizielle Front jedes Laufs (System-Tokens/s gegen Tokens/s pro Nutzer = 1000 / p90 der TPOT ohne TTFT, eine Stufenfunktion der gültigen Punkte): ihre Fläche über die Interaktivität, die beide Kurven abdecken, und ihr Durchsatz bei runden Interaktivitätsstufen in diesem Bereich. Anteil = Kandidat ÷ Referenz.</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <source>Candidate value</source>
        <translation>Wert des Kandidaten</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
</context>
<context>
    <name>Throughline::CurvePlot</name>
    <message>
        <source>Throughput vs interactivity</source>
        <translation>Durchsatz vs. Interaktivität</translation>
    </message>
    <message>
        <source>output tokens/s per GPU</source>
        <translation>Ausgabe-Tokens/s pro GPU</translation>
    </message>
    <message>
        <source>tokens/s per user (1000 / TPOT p90)</source>
        <translation>Tokens/s pro Nutzer (1000 / TPOT p90)</translation>
    </message>
    <message>
        <source>scenario %1</source>
        <translation>Szenario %1</translation>
    </message>
    <message>
        <source>One point per finished load point: x = output_tps_per_gpu (output tokens/s over all GPUs), y = interactivity = 1000 / TPOT p90. Hollow points are live estimates or invalid points.</source>
        <translation>Ein Punkt je abgeschlossenem Lastpunkt: x = output_tps_per_gpu (Ausgabe-Tokens/s über alle GPUs), y = Interaktivität = 1000 / TPOT p90. Hohle Punkte sind Live-Schätzungen oder ungültige Punkte.</translation>
    </message>
    <message>
        <source>live estimate</source>
        <translation>Live-Schätzung</translation>
    </message>
    <message>
        <source>%1: %2 tok/s per GPU, %3 tok/s per user</source>
        <translation>%1: %2 Tok/s pro GPU, %3 Tok/s pro Nutzer</translation>
    </message>
    <message>
        <source>not valid for a verdict: %1</source>
        <translation>nicht gültig für ein Urteil: %1</translation>
    </message>
    <message>
        <source>tok/s per GPU: %1; tok/s per user: %2</source>
        <translation>tok/s pro GPU: %1; tok/s pro Nutzer: %2</translation>
    </message>
</context>
<context>
    <name>Throughline::CurveRule</name>
    <message>
        <source>total tokens/s (GPU count unknown)</source>
        <translation>Tokens/s gesamt (GPU-Anzahl unbekannt)</translation>
    </message>
    <message>
        <source>TPOT p90 not reportable (n=%1), drawn at TPOT mean</source>
        <translation>TPOT p90 nicht berichtbar (n=%1), beim TPOT-Mittelwert gezeichnet</translation>
    </message>
    <message>
        <source>hollow: not valid for a verdict</source>
        <translation>hohl: nicht gültig für ein Urteil</translation>
    </message>
    <message>
        <source>no interval</source>
        <translation>kein Intervall</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>%1 % interval %2–%3</source>
        <translation>%1-%-Intervall %2–%3</translation>
    </message>
</context>
<context>
    <name>Throughline::DeploymentTableModel</name>
    <message>
        <source>%1P+%2D</source>
        <translation>%1P+%2D</translation>
    </message>
    <message>
        <source>×%1 replicas</source>
        <translation>×%1 Replikate</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>Parallelisierung</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>Replikate</translation>
    </message>
    <message>
        <source>Prefill GPUs</source>
        <translation>Prefill-GPUs</translation>
    </message>
    <message>
        <source>Decode GPUs</source>
        <translation>Decode-GPUs</translation>
    </message>
</context>
<context>
    <name>Throughline::DeriveControls</name>
    <message>
        <source>Re-derive from requests</source>
        <translation>Aus Anfragen neu ableiten</translation>
    </message>
    <message>
        <source>steady-state window</source>
        <translation>Fenster im eingeschwungenen Zustand</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>pro GPU</translation>
    </message>
    <message>
        <source>per decode GPU</source>
        <translation>pro Decode-GPU</translation>
    </message>
    <message>
        <source>total</source>
        <translation>gesamt</translation>
    </message>
    <message>
        <source>Percentile:</source>
        <translation>Perzentil:</translation>
    </message>
    <message>
        <source>Showing: %1</source>
        <translation>Angezeigt: %1</translation>
    </message>
    <message>
        <source>Recompute the point metrics from the stored request rows and stream events under another definition. Imported runs without request rows keep their stored values.</source>
        <translation>Die Punktmetriken aus den gespeicherten Anfragezeilen und Stream-Ereignissen unter einer anderen Definition neu berechnen. Importierte Läufe ohne Anfragezeilen behalten ihre gespeicherten Werte.</translation>
    </message>
    <message>
        <source>whole run (vLLM/AIPerf)</source>
        <translation>ganzer Lauf (vLLM/AIPerf)</translation>
    </message>
    <message>
        <source>Throughput definition. Steady-state: output tokens of stream events inside the measured window, warm-up included, divided by the window. Whole run: output tokens of the successful measured requests divided by first send to last end.</source>
        <translation>Durchsatzdefinition. Eingeschwungener Zustand: Ausgabe-Tokens der Stream-Ereignisse im Messfenster, Aufwärmphase eingeschlossen, geteilt durch das Fenster. Ganzer Lauf: Ausgabe-Tokens der erfolgreichen gemessenen Anfragen geteilt durch die Zeit vom ersten Senden bis zum letzten Ende.</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s): stream events pruned, stored throughput shown</source>
        <translation>
            <numerusform>%n Punkt: Stream-Ereignisse entfernt, gespeicherter Durchsatz angezeigt</numerusform>
            <numerusform>%n Punkte: Stream-Ereignisse entfernt, gespeicherter Durchsatz angezeigt</numerusform>
        </translation>
    </message>
    <message>
        <source>The event data of these points was pruned from the history, so their throughput cannot be recomputed; the stored value of the chosen window is shown instead.</source>
        <translation>Die Ereignisdaten dieser Punkte wurden aus dem Verlauf entfernt, daher lässt sich ihr Durchsatz nicht neu berechnen; stattdessen wird der gespeicherte Wert des gewählten Fensters angezeigt.</translation>
    </message>
</context>
<context>
    <name>Throughline::DerivedPointsTableModel</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>n ok</source>
        <translation>n ok</translation>
    </message>
    <message>
        <source>Window s</source>
        <translation>Fenster s</translation>
    </message>
    <message>
        <source>Out tok/s</source>
        <translation>Ausg. Tok/s</translation>
    </message>
    <message>
        <source>Out tok/s ÷ %1 GPU</source>
        <translation>Ausg. Tok/s ÷ %1 GPU</translation>
    </message>
    <message>
        <source>TTFT %1 ms</source>
        <translation>TTFT %1 ms</translation>
    </message>
    <message>
        <source>TPOT %1 ms</source>
        <translation>TPOT %1 ms</translation>
    </message>
    <message>
        <source>E2E %1 ms</source>
        <translation>E2E %1 ms</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>re-derived</source>
        <translation>neu abgeleitet</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>gespeichert</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>Decode</translation>
    </message>
    <message>
        <source>re-derived; throughput stored (events pruned)</source>
        <translation>neu abgeleitet; Durchsatz gespeichert (Ereignisse entfernt)</translation>
    </message>
</context>
<context>
    <name>Throughline::DesignerPage</name>
    <message>
        <source>Scenarios</source>
        <translation>Szenarien</translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation>Endpunkte</translation>
    </message>
    <message>
        <source>Load plan</source>
        <translation>Lastplan</translation>
    </message>
    <message>
        <source>Phases</source>
        <translation>Phasen</translation>
    </message>
    <message>
        <source>SLOs &amp;&amp; overrides</source>
        <translation>SLOs &amp;&amp; Überschreibungen</translation>
    </message>
    <message>
        <source>Campaign name</source>
        <translation>Kampagnenname</translation>
    </message>
    <message>
        <source>Rename campaign</source>
        <translation>Kampagne umbenennen</translation>
    </message>
    <message numerus="yes">
        <source>%n scenario(s): %1 model(s) × %2 backend(s) × %3 deployment(s) × %4 phase(s)</source>
        <translation>
            <numerusform>%n Szenario: %1 Modell(e) × %2 Backend(s) × %3 Deployment(s) × %4 Phase(n)</numerusform>
            <numerusform>%n Szenarien: %1 Modell(e) × %2 Backend(s) × %3 Deployment(s) × %4 Phase(n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot expand the matrix: %1</source>
        <translation>Die Matrix kann nicht expandiert werden: %1</translation>
    </message>
</context>
<context>
    <name>Throughline::EndpointEditor</name>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Edit endpoint %1</source>
        <translation>Endpunkt %1 bearbeiten</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>HTTP (OpenAI-compatible server)</source>
        <translation>HTTP (OpenAI-kompatibler Server)</translation>
    </message>
    <message>
        <source>Simulated (built-in)</source>
        <translation>Simuliert (eingebaut)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Change endpoint kind</source>
        <translation>Art des Endpunkts ändern</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>Optional replica URLs, one per line</source>
        <translation>Optionale Replikat-URLs, eine pro Zeile</translation>
    </message>
    <message>
        <source>Replica URLs</source>
        <translation>Replikat-URLs</translation>
    </message>
    <message>
        <source>Edit replica URLs</source>
        <translation>Replikat-URLs bearbeiten</translation>
    </message>
    <message>
        <source>Round robin</source>
        <translation>Reihum (Round Robin)</translation>
    </message>
    <message>
        <source>Least in flight</source>
        <translation>Wenigste laufende Anfragen</translation>
    </message>
    <message>
        <source>Routing</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Change routing</source>
        <translation>Verteilung ändern</translation>
    </message>
    <message>
        <source>Chat completions (/v1/chat/completions)</source>
        <translation>Chat Completions (/v1/chat/completions)</translation>
    </message>
    <message>
        <source>Completions (/v1/completions)</source>
        <translation>Completions (/v1/completions)</translation>
    </message>
    <message>
        <source>API flavour</source>
        <translation>API-Variante</translation>
    </message>
    <message>
        <source>Change API flavour</source>
        <translation>API-Variante ändern</translation>
    </message>
    <message>
        <source>Served model</source>
        <translation>Bereitgestelltes Modell</translation>
    </message>
    <message>
        <source>empty = the scenario&apos;s model name</source>
        <translation>leer = Modellname des Szenarios</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>API-Schlüssel-Variable</translation>
    </message>
    <message>
        <source>Name of the environment variable that holds the key. The key itself is never saved.</source>
        <translation>Name der Umgebungsvariable, die den Schlüssel enthält. Der Schlüssel selbst wird nie gespeichert.</translation>
    </message>
    <message>
        <source>API key keyring entry</source>
        <translation>API-Schlüssel im Schlüsselbund</translation>
    </message>
    <message>
        <source>secret-tool entry name</source>
        <translation>Name des secret-tool-Eintrags</translation>
    </message>
    <message>
        <source>Keyring entry looked up at run time (secret-tool). The key itself is never saved.</source>
        <translation>Schlüsselbund-Eintrag, der zur Laufzeit abgefragt wird (secret-tool). Der Schlüssel selbst wird nie gespeichert.</translation>
    </message>
    <message>
        <source>Extra headers, one per line: Name: value</source>
        <translation>Zusätzliche Header, einer pro Zeile: Name: Wert</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>Zusätzliche Header</translation>
    </message>
    <message>
        <source>Edit extra headers</source>
        <translation>Zusätzliche Header bearbeiten</translation>
    </message>
    <message>
        <source>Extra body fields as a JSON object, e.g. {&quot;temperature&quot;: 0}</source>
        <translation>Zusätzliche Body-Felder als JSON-Objekt, z. B. {&quot;temperature&quot;: 0}</translation>
    </message>
    <message>
        <source>Extra body</source>
        <translation>Zusätzlicher Body</translation>
    </message>
    <message>
        <source>Edit extra body</source>
        <translation>Zusätzlichen Body bearbeiten</translation>
    </message>
    <message>
        <source>key=glob,… (empty = every scenario)</source>
        <translation>Schlüssel=Muster,… (leer = jedes Szenario)</translation>
    </message>
    <message>
        <source>Serves</source>
        <translation>Bedient</translation>
    </message>
    <message>
        <source>Edit endpoint scenarios</source>
        <translation>Szenarien des Endpunkts bearbeiten</translation>
    </message>
    <message>
        <source>Simulator time scale: &gt; 1 runs faster than real time</source>
        <translation>Zeitfaktor des Simulators: &gt; 1 läuft schneller als Echtzeit</translation>
    </message>
    <message>
        <source>Simulator time scale</source>
        <translation>Zeitfaktor des Simulators</translation>
    </message>
    <message>
        <source>Edit simulator time scale</source>
        <translation>Zeitfaktor des Simulators bearbeiten</translation>
    </message>
    <message>
        <source>Simulator jitter</source>
        <translation>Jitter des Simulators</translation>
    </message>
    <message>
        <source>Edit simulator jitter</source>
        <translation>Jitter des Simulators bearbeiten</translation>
    </message>
    <message>
        <source>GET /v1/models answer appears here</source>
        <translation>Die Antwort auf GET /v1/models erscheint hier</translation>
    </message>
    <message>
        <source>Add endpoint</source>
        <translation>Endpunkt hinzufügen</translation>
    </message>
    <message>
        <source>Remove endpoint</source>
        <translation>Endpunkt entfernen</translation>
    </message>
    <message>
        <source>%1 (simulated)</source>
        <translation>%1 (simuliert)</translation>
    </message>
    <message>
        <source>Simulated endpoint: started on 127.0.0.1 when the run starts; nothing to test.</source>
        <translation>Simulierter Endpunkt: wird beim Start des Laufs auf 127.0.0.1 gestartet; nichts zu testen.</translation>
    </message>
    <message>
        <source>Invalid base URL “%1”</source>
        <translation>Ungültige Basis-URL „%1“</translation>
    </message>
    <message>
        <source>GET %1 …</source>
        <translation>GET %1 …</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>HTTP %1, no models listed</source>
        <translation>HTTP %1, keine Modelle aufgeführt</translation>
    </message>
    <message>
        <source>HTTP %1, models: %2</source>
        <translation>HTTP %1, Modelle: %2</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>As the backend preset publishes it</source>
        <translation>Wie die Backend-Vorlage sie veröffentlicht</translation>
    </message>
    <message>
        <source>The server&apos;s own per-request timing, joined to each request: where the time goes (History, report, show --breakdown). The server must publish it (e.g. vLLM --enable-per-request-metrics).</source>
        <translation>Die eigenen Zeiten des Servers je Anfrage, jeder Anfrage zugeordnet: wohin die Zeit geht (Verlauf, Bericht, show --breakdown). Der Server muss sie veröffentlichen (z. B. vLLM --enable-per-request-metrics).</translation>
    </message>
    <message>
        <source>Server timing</source>
        <translation>Serverzeiten</translation>
    </message>
    <message>
        <source>Change server timing</source>
        <translation>Serverzeiten ändern</translation>
    </message>
    <message>
        <source>Timing URL</source>
        <translation>Zeiten-URL</translation>
    </message>
    <message>
        <source>TensorRT-LLM: empty = &lt;base URL&gt;/perf_metrics</source>
        <translation>TensorRT-LLM: leer = &lt;Basis-URL&gt;/perf_metrics</translation>
    </message>
    <message>
        <source>Timing file</source>
        <translation>Zeitendatei</translation>
    </message>
    <message>
        <source>Dynamo request trace (JSONL)</source>
        <translation>Dynamo-Anfrage-Trace (JSONL)</translation>
    </message>
</context>
<context>
    <name>Throughline::ExportActions</name>
    <message>
        <source>Export plot</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>Throughline::HistoryCompareWidget</name>
    <message>
        <source>Step function (MLPerf)</source>
        <translation>Treppenfunktion (MLPerf)</translation>
    </message>
    <message>
        <source>Draw the overlaid curves as MLPerf Endpoints step functions.</source>
        <translation>Die überlagerten Kurven als MLPerf-Endpoints-Treppenfunktionen zeichnen.</translation>
    </message>
    <message>
        <source>Bars:</source>
        <translation>Balken:</translation>
    </message>
    <message>
        <source>output tok/s per GPU at the operating point</source>
        <translation>Ausgabe-Tok/s pro GPU im Betriebspunkt</translation>
    </message>
    <message>
        <source>TTFT p99</source>
        <translation>TTFT p99</translation>
    </message>
    <message>
        <source>TPOT p99</source>
        <translation>TPOT p99</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Candidate value</source>
        <translation>Wert des Kandidaten</translation>
    </message>
    <message>
        <source>Δ %</source>
        <translation>Δ %</translation>
    </message>
    <message>
        <source>Export bars…</source>
        <translation>Balken exportieren…</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>Diagramm exportieren…</translation>
    </message>
    <message>
        <source>Deltas CSV…</source>
        <translation>Abweichungen als CSV…</translation>
    </message>
    <message>
        <source>Copy deltas</source>
        <translation>Abweichungen kopieren</translation>
    </message>
    <message numerus="yes">
        <source>Baseline %1 vs %n candidate(s)</source>
        <translation>
            <numerusform>Referenz %1 vs. %n Kandidat</numerusform>
            <numerusform>Referenz %1 vs. %n Kandidaten</numerusform>
        </translation>
    </message>
    <message>
        <source>better</source>
        <translation>besser</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>schlechter</translation>
    </message>
    <message>
        <source>same</source>
        <translation>gleich</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Higher is better.</source>
        <translation>Höher ist besser.</translation>
    </message>
    <message>
        <source>Lower is better.</source>
        <translation>Niedriger ist besser.</translation>
    </message>
    <message>
        <source>Stored values.</source>
        <translation>Gespeicherte Werte.</translation>
    </message>
    <message>
        <source>Both values re-derived.</source>
        <translation>Beide Werte neu abgeleitet.</translation>
    </message>
    <message>
        <source>Baseline %1, candidate %2.</source>
        <translation>Referenz %1, Kandidat %2.</translation>
    </message>
    <message>
        <source>re-derived</source>
        <translation>neu abgeleitet</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>gespeichert</translation>
    </message>
    <message>
        <source>Deltas at the operating points, %1.</source>
        <translation>Abweichungen in den Betriebspunkten, %1.</translation>
    </message>
    <message>
        <source>Some values could not be re-derived (imported runs or pruned events) and are the stored ones: see the tooltips.</source>
        <translation>Einige Werte ließen sich nicht neu ableiten (importierte Läufe oder entfernte Ereignisse) und sind die gespeicherten: siehe Tooltips.</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>Per phase (%1)</source>
        <translation>Pro Phase (%1)</translation>
    </message>
    <message>
        <source>Select 2–8 runs in the list (Ctrl+click) and press Compare; the first is the baseline.</source>
        <translation>2–8 Läufe in der Liste auswählen (Strg+Klick) und Vergleichen drücken; der erste ist die Referenz.</translation>
    </message>
    <message>
        <source>Comparison PDF…</source>
        <translation>Vergleich als PDF…</translation>
    </message>
    <message>
        <source>The comparison report of these runs as a PDF, as throughline-cli report --compare writes it: overlaid frontiers, deltas at the operating points (stored values), verdict changes and what changed in the environment.</source>
        <translation>Der Vergleichsbericht dieser Läufe als PDF, wie throughline-cli report --compare ihn schreibt: überlagerte Leitkurven, Differenzen an den Betriebspunkten (gespeicherte Werte), geänderte Urteile und was sich an der Umgebung geändert hat.</translation>
    </message>
    <message>
        <source>Comparison PDF</source>
        <translation>Vergleich als PDF</translation>
    </message>
    <message>
        <source>Select 2–8 runs in the list (Ctrl+click) and press Compare first.</source>
        <translation>Zuerst 2–8 Läufe in der Liste auswählen (Strg+Klick) und auf „Vergleich“ klicken.</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Comparison report written to %1</source>
        <translation>Vergleichsbericht nach %1 geschrieben</translation>
    </message>
    <message>
        <source>No interval on both sides: marked by the ±1 % rule.</source>
        <translation>Nicht beide Seiten mit Intervall: nach der ±1-%-Regel markiert.</translation>
    </message>
    <message>
        <source>An interval is open: not enough data to judge beyond noise.</source>
        <translation>Ein Intervall ist offen: zu wenige Daten für ein Urteil jenseits des Rauschens.</translation>
    </message>
    <message>
        <source>Change %1 % [%2, %3] at %4 %; judged beyond noise (Holm over the candidate&apos;s rows with intervals, 1 % noise floor per run).</source>
        <translation>Änderung %1 % [%2, %3] bei %4 %; jenseits des Rauschens beurteilt (Holm über die Zeilen des Kandidaten mit Intervallen, 1 % Grundrauschen je Lauf).</translation>
    </message>
    <message>
        <source>Stored values with intervals are judged beyond noise (regressed, improved, within noise); the others by ±1 % (better, worse, same).</source>
        <translation>Gespeicherte Werte mit Intervallen werden jenseits des Rauschens beurteilt (verschlechtert, verbessert, im Rauschen); die übrigen nach ±1 % (besser, schlechter, gleich).</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>MLPerf frontier</source>
        <translation>MLPerf-Front</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>The official MLPerf Endpoints frontier of each candidate against the baseline&apos;s: its area over the interactivity both curves cover and its throughput at round interactivity levels inside that range. Share = candidate ÷ baseline.</source>
        <translation>Die offizielle MLPerf-Endpoints-Front jedes Kandidaten gegen die der Referenz: ihre Fläche über die Interaktivität, die beide Kurven abdecken, und ihr Durchsatz bei runden Interaktivitätsstufen in diesem Bereich. Anteil = Kandidat ÷ Referenz.</translation>
    </message>
</context>
<context>
    <name>Throughline::HistoryDetailWidget</name>
    <message>
        <source>Tags and notes</source>
        <translation>Tags und Notizen</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Op. point</source>
        <translation>Betr.-Punkt</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>Prüfungen</translation>
    </message>
    <message>
        <source>Curve and distributions</source>
        <translation>Kurve und Verteilungen</translation>
    </message>
    <message>
        <source>Over time</source>
        <translation>Zeitverlauf</translation>
    </message>
    <message>
        <source>Distribution:</source>
        <translation>Verteilung:</translation>
    </message>
    <message>
        <source>Export curve…</source>
        <translation>Kurve exportieren…</translation>
    </message>
    <message>
        <source>Export histogram…</source>
        <translation>Histogramm exportieren…</translation>
    </message>
    <message>
        <source>Export CDF…</source>
        <translation>CDF exportieren…</translation>
    </message>
    <message>
        <source>Points CSV…</source>
        <translation>Punkte als CSV…</translation>
    </message>
    <message>
        <source>Copy points</source>
        <translation>Punkte kopieren</translation>
    </message>
    <message>
        <source>Tags/notes of run %1 not saved: %2</source>
        <translation>Tags/Notizen von Lauf %1 nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>, simulated</source>
        <translation>, simuliert</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht gelaufen</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>%1 histogram (n=%2)</source>
        <translation>Histogramm %1 (n=%2)</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>%1 CDF</source>
        <translation>CDF %1</translation>
    </message>
    <message>
        <source>fraction ≤ x</source>
        <translation>Anteil ≤ x</translation>
    </message>
    <message>
        <source>Curve (stored data)</source>
        <translation>Kurve (gespeicherte Daten)</translation>
    </message>
    <message>
        <source>Curve (%1)</source>
        <translation>Kurve (%1)</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>No run selected: pick a run in the list above, or run the campaign (Run ▸ Start Run, F5).</source>
        <translation>Kein Lauf ausgewählt: oben einen Lauf wählen oder die Kampagne ausführen (Lauf ▸ Lauf starten, F5).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — run %2, started %3, %4, source %5%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — Lauf %2, gestartet %3, %4, Quelle %5%6</translation>
    </message>
    <message>
        <source>No point of this run has a throughput and a TPOT to plot.</source>
        <translation>Kein Punkt dieses Laufs hat einen Durchsatz und eine TPOT zum Zeichnen.</translation>
    </message>
    <message>
        <source>This point has no stored request rows (imported results keep only aggregates), so there is no distribution to draw.</source>
        <translation>Dieser Punkt hat keine gespeicherten Anfragezeilen (importierte Ergebnisse behalten nur Aggregate), daher gibt es keine Verteilung zu zeichnen.</translation>
    </message>
    <message>
        <source>Run %1 cannot be read: %2</source>
        <translation>Lauf %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>MLPerf Endpoints</source>
        <translation>MLPerf Endpoints</translation>
    </message>
    <message>
        <source>Where the time goes</source>
        <translation>Wohin die Zeit geht</translation>
    </message>
</context>
<context>
    <name>Throughline::HistoryPage</name>
    <message>
        <source>Run detail</source>
        <translation>Laufdetails</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Search…</source>
        <translation>Suchen…</translation>
    </message>
    <message>
        <source>model glob</source>
        <translation>Modell-Muster</translation>
    </message>
    <message>
        <source>backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>tag</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>from 2026-01-01</source>
        <translation>ab 2026-01-01</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>any verdict</source>
        <translation>jedes Urteil</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>Importieren…</translation>
    </message>
    <message>
        <source>Import results</source>
        <translation>Ergebnisse importieren</translation>
    </message>
    <message>
        <source>Results (*.json *.jsonl *.csv *.tlrun);;All files (*)</source>
        <translation>Ergebnisse (*.json *.jsonl *.csv *.tlrun);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Report PDF…</source>
        <translation>Bericht als PDF…</translation>
    </message>
    <message>
        <source>Runs CSV…</source>
        <translation>Läufe als CSV…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>Läufe löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) from history?</source>
        <translation>
            <numerusform>%n Lauf aus dem Verlauf löschen?</numerusform>
            <numerusform>%n Läufe aus dem Verlauf löschen?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in history</source>
        <translation>
            <numerusform>%n Lauf im Verlauf</numerusform>
            <numerusform>%n Läufe im Verlauf</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved tags and notes of run %1</source>
        <translation>Tags und Notizen von Lauf %1 gespeichert</translation>
    </message>
    <message>
        <source>Imported %1 (%2): %3 scenario(s)</source>
        <translation>%1 importiert (%2): %3 Szenario(s)</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>Bericht</translation>
    </message>
    <message>
        <source>Select one run.</source>
        <translation>Wählen Sie einen Lauf aus.</translation>
    </message>
    <message>
        <source>PDF report</source>
        <translation>PDF-Bericht</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
</context>
<context>
    <name>Throughline::LoadPlanEditor</name>
    <message>
        <source>Closed loop: fixed concurrency points</source>
        <translation>Geschlossene Schleife: feste Nebenläufigkeitsstufen</translation>
    </message>
    <message>
        <source>Open loop: fixed request rates</source>
        <translation>Offene Schleife: feste Anfrageraten</translation>
    </message>
    <message>
        <source>Curve: concurrency sweep</source>
        <translation>Kurve: Nebenläufigkeits-Sweep</translation>
    </message>
    <message>
        <source>Search: highest concurrency meeting the SLOs</source>
        <translation>Suche: höchste Nebenläufigkeit, die die SLOs einhält</translation>
    </message>
    <message>
        <source>Change load-plan mode</source>
        <translation>Modus des Lastplans ändern</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>Concurrencies</source>
        <translation>Nebenläufigkeiten</translation>
    </message>
    <message>
        <source>Edit concurrencies</source>
        <translation>Nebenläufigkeiten bearbeiten</translation>
    </message>
    <message>
        <source>Rates (requests/s)</source>
        <translation>Raten (Anfragen/s)</translation>
    </message>
    <message>
        <source>Edit rates</source>
        <translation>Raten bearbeiten</translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation>Poisson</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>Konstant</translation>
    </message>
    <message>
        <source>Gamma (burstiness)</source>
        <translation>Gamma (Burstiness)</translation>
    </message>
    <message>
        <source>Arrivals</source>
        <translation>Ankünfte</translation>
    </message>
    <message>
        <source>Change arrival process</source>
        <translation>Ankunftsprozess ändern</translation>
    </message>
    <message>
        <source>Burstiness</source>
        <translation>Burstiness</translation>
    </message>
    <message>
        <source>Gamma shape; 1 = Poisson, &lt; 1 burstier</source>
        <translation>Gamma-Formparameter; 1 = Poisson, &lt; 1 stoßartiger</translation>
    </message>
    <message>
        <source>Concurrency cap</source>
        <translation>Nebenläufigkeitsgrenze</translation>
    </message>
    <message>
        <source>0 = uncapped</source>
        <translation>0 = unbegrenzt</translation>
    </message>
    <message>
        <source>Warm-up</source>
        <translation>Aufwärmphase</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Point duration</source>
        <translation>Dauer je Lastpunkt</translation>
    </message>
    <message>
        <source>0 = request count ÷ rate</source>
        <translation>0 = Anzahl Anfragen ÷ Rate</translation>
    </message>
    <message>
        <source>log2 steps</source>
        <translation>log2-Stufen</translation>
    </message>
    <message>
        <source>MLPerf Endpoints regions</source>
        <translation>MLPerf-Endpoints-Bereiche</translation>
    </message>
    <message>
        <source>Spacing</source>
        <translation>Abstände</translation>
    </message>
    <message>
        <source>Change curve spacing</source>
        <translation>Abstände der Kurve ändern</translation>
    </message>
    <message>
        <source>Minimum concurrency</source>
        <translation>Minimale Nebenläufigkeit</translation>
    </message>
    <message>
        <source>Maximum concurrency</source>
        <translation>Maximale Nebenläufigkeit</translation>
    </message>
    <message>
        <source>Lowest concurrency</source>
        <translation>Niedrigste Nebenläufigkeit</translation>
    </message>
    <message>
        <source>Highest concurrency</source>
        <translation>Höchste Nebenläufigkeit</translation>
    </message>
    <message>
        <source>Maximum points</source>
        <translation>Maximale Punktzahl</translation>
    </message>
    <message>
        <source>Per point</source>
        <translation>Je Lastpunkt</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>0 = multiplier × C</source>
        <translation>0 = Multiplikator × C</translation>
    </message>
    <message>
        <source>Request multiplier</source>
        <translation>Anfrage-Multiplikator</translation>
    </message>
    <message>
        <source> × C</source>
        <translation> × C</translation>
    </message>
    <message>
        <source>Warm-up requests</source>
        <translation>Aufwärm-Anfragen</translation>
    </message>
    <message>
        <source>-1 = warm-up multiplier × C</source>
        <translation>-1 = Aufwärm-Multiplikator × C</translation>
    </message>
    <message>
        <source>Warm-up multiplier</source>
        <translation>Aufwärm-Multiplikator</translation>
    </message>
    <message>
        <source>Ramp-up</source>
        <translation>Hochlauf</translation>
    </message>
    <message>
        <source>Cool-down</source>
        <translation>Auslauf</translation>
    </message>
    <message>
        <source>Minimum window</source>
        <translation>Mindestfenster</translation>
    </message>
    <message>
        <source>Validity: a window shorter than max(this, 3 × median E2E) is flagged</source>
        <translation>Gültigkeit: Ein Fenster kürzer als max(dieser Wert, 3 × Median E2E) wird markiert</translation>
    </message>
    <message>
        <source>Maximum duration</source>
        <translation>Maximale Dauer</translation>
    </message>
    <message>
        <source>Request timeout</source>
        <translation>Zeitlimit je Anfrage</translation>
    </message>
    <message>
        <source>Error-rate abort</source>
        <translation>Abbruch bei Fehlerquote</translation>
    </message>
    <message>
        <source>Abort the point when this share of finished requests failed (after 20)</source>
        <translation>Lastpunkt abbrechen, wenn dieser Anteil der abgeschlossenen Anfragen fehlgeschlagen ist (nach 20)</translation>
    </message>
    <message>
        <source>Client engine</source>
        <translation>Client-Engine</translation>
    </message>
    <message>
        <source>Read first tokens first</source>
        <translation>Erste Tokens zuerst lesen</translation>
    </message>
    <message>
        <source>Reads requests still waiting for their first token ahead of the others: tighter TTFT. Its effect on later-token gaps at thousands of streams depends on the client&apos;s load; compare both settings when chunk-gap tails matter.</source>
        <translation>Liest Anfragen, die noch auf ihr erstes Token warten, vor den anderen: genauere TTFT. Wie sich das bei Tausenden von Streams auf die Abstände späterer Tokens auswirkt, hängt von der Last des Clients ab; vergleichen Sie beide Einstellungen, wenn die Ausläufer der Chunk-Abstände zählen.</translation>
    </message>
    <message>
        <source>Change first-token read order</source>
        <translation>Lesereihenfolge für erste Tokens ändern</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>Runs of each load, back to back on fresh connections; the spread of the repeats gives an across-repeat interval, and verdicts use the wider of it and each run&apos;s own</source>
        <translation>Läufe jeder Last, direkt nacheinander auf neuen Verbindungen; die Streuung der Wiederholungen ergibt ein Intervall über die Wiederholungen, und Urteile nutzen das breitere von ihm und dem eigenen jedes Laufs</translation>
    </message>
    <message>
        <source>Confidence level</source>
        <translation>Konfidenzniveau</translation>
    </message>
    <message>
        <source>Level of every point&apos;s confidence intervals (0.95 = 95 %)</source>
        <translation>Niveau der Konfidenzintervalle jedes Punkts (0,95 = 95 %)</translation>
    </message>
</context>
<context>
    <name>Throughline::MainWindow</name>
    <message>
        <source>History: %1</source>
        <translation>Verlauf: %1</translation>
    </message>
    <message>
        <source>History database (override with --db or THROUGHLINE_DB)</source>
        <translation>Verlaufsdatenbank (mit --db oder THROUGHLINE_DB überschreiben)</translation>
    </message>
    <message>
        <source>Engine: idle</source>
        <translation>Engine: Leerlauf</translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation>Engine: %1</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>Entwurf</translation>
    </message>
    <message>
        <source>Compose the campaign matrix (Ctrl+1)</source>
        <translation>Die Kampagnenmatrix zusammenstellen (Strg+1)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Run the campaign and watch it live (Ctrl+2)</source>
        <translation>Die Kampagne ausführen und live verfolgen (Strg+2)</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Stored runs (Ctrl+3)</source>
        <translation>Gespeicherte Läufe (Strg+3)</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>Target tables and verdicts (Ctrl+4)</source>
        <translation>Zieltabellen und Urteile (Strg+4)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New Campaign</source>
        <translation>&amp;Neue Kampagne</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Open &amp;Demo Campaign</source>
        <translation>&amp;Demo-Kampagne öffnen</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Design</source>
        <translation>&amp;Entwurf</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>&amp;Targets</source>
        <translation>&amp;Ziele</translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>Erscheinungs&amp;bild</translation>
    </message>
    <message>
        <source>Follow &amp;System</source>
        <translation>&amp;System folgen</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;System Language</source>
        <translation>&amp;Systemsprache</translation>
    </message>
    <message>
        <source>The new language applies after Throughline restarts.</source>
        <translation>Die neue Sprache gilt nach einem Neustart von Throughline.</translation>
    </message>
    <message>
        <source>Applies after a restart</source>
        <translation>Gilt nach einem Neustart</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Throughline</source>
        <translation>&amp;Über Throughline</translation>
    </message>
    <message>
        <source>About Throughline</source>
        <translation>Über Throughline</translation>
    </message>
    <message>
        <source>&lt;b&gt;Throughline&lt;/b&gt; %1&lt;br&gt;A workbench for LLM-inference benchmark campaigns.</source>
        <translation>&lt;b&gt;Throughline&lt;/b&gt; %1&lt;br&gt;Eine Werkbank für Benchmark-Kampagnen der LLM-Inferenz.</translation>
    </message>
    <message>
        <source>%1[*] — Throughline</source>
        <translation>%1[*] — Throughline</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation>Neue Kampagne</translation>
    </message>
    <message>
        <source>Cannot open campaign</source>
        <translation>Kampagne kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Open campaign</source>
        <translation>Kampagne öffnen</translation>
    </message>
    <message>
        <source>Campaigns (*.json);;All files (*)</source>
        <translation>Kampagnen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save campaign</source>
        <translation>Kampagne speichern</translation>
    </message>
    <message>
        <source>Campaigns (*.json)</source>
        <translation>Kampagnen (*.json)</translation>
    </message>
    <message>
        <source>Cannot save campaign</source>
        <translation>Kampagne kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The campaign “%1” has unsaved changes. Save them?</source>
        <translation>Die Kampagne „%1“ hat ungespeicherte Änderungen. Speichern?</translation>
    </message>
    <message>
        <source>Run on a &amp;Cluster…</source>
        <translation>Auf einem &amp;Cluster ausführen…</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Planung</translation>
    </message>
    <message>
        <source>GPUs, dollars and energy at an SLO (Ctrl+5)</source>
        <translation>GPUs, Dollar und Energie bei einem SLO (Strg+5)</translation>
    </message>
    <message>
        <source>Run %1, stored point %2</source>
        <translation>Lauf %1, gespeicherter Punkt %2</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>&amp;Planung</translation>
    </message>
</context>
<context>
    <name>Throughline::MatrixEditor</name>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>Backends</translation>
    </message>
    <message>
        <source>Phases</source>
        <translation>Phasen</translation>
    </message>
    <message>
        <source>Add custom phase…</source>
        <translation>Eigene Phase hinzufügen…</translation>
    </message>
    <message>
        <source>Custom phase</source>
        <translation>Eigene Phase</translation>
    </message>
    <message>
        <source>Phase name:</source>
        <translation>Name der Phase:</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigene</translation>
    </message>
    <message>
        <source>Deployments (GPU × count × parallelism × precision, or prefill/decode pools)</source>
        <translation>Deployments (GPU × Anzahl × Parallelisierung × Genauigkeit oder Prefill-/Decode-Pools)</translation>
    </message>
    <message>
        <source>× </source>
        <translation>× </translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add disaggregated</source>
        <translation>Disaggregiert hinzufügen</translation>
    </message>
    <message>
        <source>Prefill and decode on separate GPU pools (24 prefill + 8 decode by default)</source>
        <translation>Prefill und Decode auf getrennten GPU-Pools (standardmäßig 24 Prefill + 8 Decode)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Edit deployment</source>
        <translation>Deployment bearbeiten</translation>
    </message>
    <message>
        <source>Include / exclude rules</source>
        <translation>Einschluss-/Ausschlussregeln</translation>
    </message>
    <message>
        <source>include: one rule per line, e.g. gpu=H200,phase=Chat (empty = everything)</source>
        <translation>Einschließen: eine Regel pro Zeile, z. B. gpu=H200,phase=Chat (leer = alles)</translation>
    </message>
    <message>
        <source>exclude: e.g. model=DeepSeek*,gpus=1</source>
        <translation>Ausschließen: z. B. model=DeepSeek*,gpus=1</translation>
    </message>
    <message>
        <source>key=glob over model, backend, gpu, gpus, phase; AND across keys, OR within a repeated key</source>
        <translation>Schlüssel=Muster über model, backend, gpu, gpus, phase; UND zwischen Schlüsseln, ODER innerhalb eines wiederholten Schlüssels</translation>
    </message>
    <message>
        <source>%1: %2 B parameters (%3 B active), %4 layers</source>
        <translation>%1: %2 Mrd. Parameter (%3 Mrd. aktiv), %4 Schichten</translation>
    </message>
    <message>
        <source>Custom model defined in this campaign</source>
        <translation>Eigenes Modell, in dieser Kampagne definiert</translation>
    </message>
    <message>
        <source>Unknown model</source>
        <translation>Unbekanntes Modell</translation>
    </message>
    <message>
        <source>Backend preset “%1”</source>
        <translation>Backend-Voreinstellung „%1“</translation>
    </message>
    <message>
        <source>Unknown backend</source>
        <translation>Unbekanntes Backend</translation>
    </message>
    <message>
        <source>%1 (%2/%3)</source>
        <translation>%1 (%2/%3)</translation>
    </message>
    <message>
        <source>Preset: ISL %1, OSL %2 tokens</source>
        <translation>Voreinstellung: ISL %1, OSL %2 Tokens</translation>
    </message>
    <message>
        <source>Custom phase; unchecking removes it (undo restores it)</source>
        <translation>Eigene Phase; Abwählen entfernt sie (Rückgängig stellt sie wieder her)</translation>
    </message>
    <message>
        <source>Add model %1</source>
        <translation>Modell %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove model %1</source>
        <translation>Modell %1 entfernen</translation>
    </message>
    <message>
        <source>Add backend %1</source>
        <translation>Backend %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove backend %1</source>
        <translation>Backend %1 entfernen</translation>
    </message>
    <message>
        <source>Add phase %1</source>
        <translation>Phase %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove phase %1</source>
        <translation>Phase %1 entfernen</translation>
    </message>
    <message>
        <source>Add deployment %1</source>
        <translation>Deployment %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove deployment</source>
        <translation>Deployment entfernen</translation>
    </message>
    <message>
        <source>%1 rule %2: %3</source>
        <translation>%1-Regel %2: %3</translation>
    </message>
    <message>
        <source>Include</source>
        <translation>Einschließen</translation>
    </message>
    <message>
        <source>Exclude</source>
        <translation>Ausschließen</translation>
    </message>
    <message>
        <source>Edit include rules</source>
        <translation>Einschlussregeln bearbeiten</translation>
    </message>
    <message>
        <source>Edit exclude rules</source>
        <translation>Ausschlussregeln bearbeiten</translation>
    </message>
</context>
<context>
    <name>Throughline::MetricTexts</name>
    <message>
        <source>Output throughput</source>
        <translation>Ausgabedurchsatz</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Output tokens of content events timestamped inside the measurement window [W0, W1], from any request (warm-up included), divided by the window length (steady state).</source>
        <translation>Ausgabe-Tokens der Inhaltsereignisse mit Zeitstempel im Messfenster [W0, W1], aus jeder Anfrage (Aufwärmphase eingeschlossen), geteilt durch die Fensterlänge (eingeschwungener Zustand).</translation>
    </message>
    <message>
        <source>Output tokens/s per GPU</source>
        <translation>Ausgabe-Tokens/s pro GPU</translation>
    </message>
    <message>
        <source>tokens/s/GPU</source>
        <translation>Tokens/s/GPU</translation>
    </message>
    <message>
        <source>output_tps divided by all GPUs of the deployment, replicas included (NVIDIA&apos;s headline metric).</source>
        <translation>output_tps geteilt durch alle GPUs des Deployments, Replikate eingeschlossen (die Leitmetrik von NVIDIA).</translation>
    </message>
    <message>
        <source>Output tokens/s per decode GPU</source>
        <translation>Ausgabe-Tokens/s pro Decode-GPU</translation>
    </message>
    <message>
        <source>output_tps divided by the decode GPUs of a disaggregated deployment (all GPUs otherwise); InferenceX output_tput_per_gpu.</source>
        <translation>output_tps geteilt durch die Decode-GPUs eines disaggregierten Deployments (sonst durch alle GPUs); output_tput_per_gpu bei InferenceX.</translation>
    </message>
    <message>
        <source>Total tokens/s per GPU</source>
        <translation>Tokens/s insgesamt pro GPU</translation>
    </message>
    <message>
        <source>(input + output) tokens/s over all GPUs; input tokens are the prompt tokens of successful measured requests; InferenceX tput_per_gpu.</source>
        <translation>(Eingabe- + Ausgabe-)Tokens/s über alle GPUs; Eingabe-Tokens sind die Prompt-Tokens der erfolgreichen gemessenen Anfragen; tput_per_gpu bei InferenceX.</translation>
    </message>
    <message>
        <source>Request rate</source>
        <translation>Anfragerate</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>Anfragen/s</translation>
    </message>
    <message>
        <source>Successful measured requests divided by the window length.</source>
        <translation>Erfolgreiche gemessene Anfragen geteilt durch die Fensterlänge.</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>Goodput</translation>
    </message>
    <message>
        <source>Successful measured requests that met every SLO of the scenario (TTFT, TPOT, E2E), divided by the window length.</source>
        <translation>Erfolgreiche gemessene Anfragen, die jedes SLO des Szenarios einhielten (TTFT, TPOT, E2E), geteilt durch die Fensterlänge.</translation>
    </message>
    <message>
        <source>Output throughput (whole run, vLLM/AIPerf)</source>
        <translation>Ausgabedurchsatz (ganzer Lauf, vLLM/AIPerf)</translation>
    </message>
    <message>
        <source>Sum of N_out of successful measured requests divided by (last t_end - first t_send): the vLLM bench serve / AIPerf definition.</source>
        <translation>Summe der N_out erfolgreicher gemessener Anfragen geteilt durch (letztes t_end - erstes t_send): die Definition von vLLM bench serve und AIPerf.</translation>
    </message>
    <message>
        <source>Output throughput (MLPerf)</source>
        <translation>Ausgabedurchsatz (MLPerf)</translation>
    </message>
    <message>
        <source>Tokenizer-counted N_out of successful requests issued in [W0, W1) divided by the window length (MLPerf Endpoints style).</source>
        <translation>Vom Tokenizer gezählte N_out der in [W0, W1) gesendeten erfolgreichen Anfragen geteilt durch die Fensterlänge (wie MLPerf Endpoints).</translation>
    </message>
    <message>
        <source>Input tokens/s per prefill GPU</source>
        <translation>Eingabe-Tokens/s pro Prefill-GPU</translation>
    </message>
    <message>
        <source>Input tokens/s divided by the prefill GPUs of a disaggregated deployment (all GPUs otherwise).</source>
        <translation>Eingabe-Tokens/s geteilt durch die Prefill-GPUs eines disaggregierten Deployments (sonst durch alle GPUs).</translation>
    </message>
    <message>
        <source>Token goodput</source>
        <translation>Token-Goodput</translation>
    </message>
    <message>
        <source>Output tokens of the requests that met every SLO, divided by the window length.</source>
        <translation>Ausgabe-Tokens der Anfragen, die jedes SLO einhielten, geteilt durch die Fensterlänge.</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Time to first token: time of the first content event minus t_send (the worker hand-off); streaming only.</source>
        <translation>Zeit bis zum ersten Token: Zeitpunkt des ersten Inhaltsereignisses minus t_send (Übergabe an den Worker); nur beim Streaming.</translation>
    </message>
    <message>
        <source>TTFT incl. client queueing</source>
        <translation>TTFT einschließlich Warteschlange im Client</translation>
    </message>
    <message>
        <source>Time of the first content event minus t_sched (intended send time), so client-side queueing is included.</source>
        <translation>Zeitpunkt des ersten Inhaltsereignisses minus t_sched (geplanter Sendezeitpunkt); die Wartezeit im Client ist also eingeschlossen.</translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>Time per output token after the first: (t_last_token - t_first_token) / (N_out - N_first); undefined (and counted) when N_out - N_first &lt; 1.</source>
        <translation>Zeit pro Ausgabe-Token nach dem ersten: (t_last_token - t_first_token) / (N_out - N_first); undefiniert (und gezählt), wenn N_out - N_first &lt; 1.</translation>
    </message>
    <message>
        <source>TPOT (MLPerf)</source>
        <translation>TPOT (MLPerf)</translation>
    </message>
    <message>
        <source>(t_end - t_first_token) divided by the tokenizer-counted tokens after the first chunk.</source>
        <translation>(t_end - t_first_token) geteilt durch die vom Tokenizer gezählten Tokens nach dem ersten Chunk.</translation>
    </message>
    <message>
        <source>End-to-end latency</source>
        <translation>Ende-zu-Ende-Latenz</translation>
    </message>
    <message>
        <source>t_end (transfer done) minus t_send.</source>
        <translation>t_end (Übertragung beendet) minus t_send.</translation>
    </message>
    <message>
        <source>Chunk gap</source>
        <translation>Chunk-Abstand</translation>
    </message>
    <message>
        <source>Time between consecutive content events of a request, pooled over requests (vLLM &apos;ITL&apos;, AIPerf &apos;inter chunk latency&apos;).</source>
        <translation>Zeit zwischen aufeinanderfolgenden Inhaltsereignissen einer Anfrage, über alle Anfragen zusammengefasst (vLLM „ITL“, AIPerf „inter chunk latency“).</translation>
    </message>
    <message>
        <source>Interactivity</source>
        <translation>Interaktivität</translation>
    </message>
    <message>
        <source>tokens/s/user</source>
        <translation>Tokens/s/Nutzer</translation>
    </message>
    <message>
        <source>1000 / TPOT in ms: output tokens per second one user sees after the first token.</source>
        <translation>1000 / TPOT in ms: Ausgabe-Tokens pro Sekunde, die ein Nutzer nach dem ersten Token sieht.</translation>
    </message>
    <message>
        <source>50th percentile</source>
        <translation>50. Perzentil (Median)</translation>
    </message>
    <message>
        <source>90th percentile</source>
        <translation>90. Perzentil</translation>
    </message>
    <message>
        <source>95th percentile</source>
        <translation>95. Perzentil</translation>
    </message>
    <message>
        <source>99th percentile</source>
        <translation>99. Perzentil</translation>
    </message>
    <message>
        <source>99.9th percentile</source>
        <translation>99,9. Perzentil</translation>
    </message>
    <message>
        <source>arithmetic mean</source>
        <translation>arithmetisches Mittel</translation>
    </message>
    <message>
        <source>minimum</source>
        <translation>Minimum</translation>
    </message>
    <message>
        <source>maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>population standard deviation</source>
        <translation>Standardabweichung der Grundgesamtheit</translation>
    </message>
    <message>
        <source>number of samples</source>
        <translation>Anzahl der Stichprobenwerte</translation>
    </message>
</context>
<context>
    <name>Throughline::PhaseEditor</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Rename phase</source>
        <translation>Phase umbenennen</translation>
    </message>
    <message>
        <source>Input tokens (ISL)</source>
        <translation>Eingabe-Tokens (ISL)</translation>
    </message>
    <message>
        <source>Output tokens (OSL)</source>
        <translation>Ausgabe-Tokens (OSL)</translation>
    </message>
    <message>
        <source>Nominal</source>
        <translation>Nennwert</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>Fest</translation>
    </message>
    <message>
        <source>Uniform [min, max]</source>
        <translation>Gleichverteilt [min, max]</translation>
    </message>
    <message>
        <source>Normal (mean, std) clamped</source>
        <translation>Normalverteilt (Mittelwert, Std.-Abw.), begrenzt</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Change %1 distribution</source>
        <translation>Verteilung von %1 ändern</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>Minimum</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>Edit %1 %2</source>
        <translation>%1 %2 bearbeiten</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Std. deviation</source>
        <translation>Standardabweichung</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Uniform distribution from nominal × (1 − r) to nominal × (1 + r)</source>
        <translation>Gleichverteilung von Nennwert × (1 − r) bis Nennwert × (1 + r)</translation>
    </message>
    <message>
        <source>Spread helper</source>
        <translation>Streuungshilfe</translation>
    </message>
    <message>
        <source>Apply ± %1 % spread</source>
        <translation>± %1 % Streuung anwenden</translation>
    </message>
    <message>
        <source>%1 (%2/%3)</source>
        <translation>%1 (%2/%3)</translation>
    </message>
</context>
<context>
    <name>Throughline::PointDeriver</name>
    <message>
        <source>stored, %1</source>
        <translation>gespeichert, %1</translation>
    </message>
    <message>
        <source>steady-state window</source>
        <translation>Fenster im eingeschwungenen Zustand</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>pro GPU</translation>
    </message>
    <message>
        <source>per decode GPU</source>
        <translation>pro Decode-GPU</translation>
    </message>
    <message>
        <source>total, not per GPU</source>
        <translation>gesamt, nicht pro GPU</translation>
    </message>
    <message>
        <source>re-derived %1, %2, %3</source>
        <translation>neu abgeleitet %1, %2, %3</translation>
    </message>
    <message>
        <source>whole run (vLLM/AIPerf)</source>
        <translation>ganzer Lauf (vLLM/AIPerf)</translation>
    </message>
</context>
<context>
    <name>Throughline::PointsTableModel</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Out tok/s/GPU</source>
        <translation>Ausg.-Tok/s/GPU</translation>
    </message>
    <message>
        <source>TTFT p90 ms</source>
        <translation>TTFT p90 ms</translation>
    </message>
    <message>
        <source>TPOT p90 ms</source>
        <translation>TPOT p90 ms</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>Gültigkeit</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>ungültig: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n shard(s), skew %1 ms</source>
        <translation>
            <numerusform>%n Shard, Versatz %1 ms</numerusform>
            <numerusform>%n Shards, Versatz %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>late: %1</source>
        <translation>verspätet: %1</translation>
    </message>
    <message>
        <source>missing: %1</source>
        <translation>fehlt: %1</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shards</translation>
    </message>
</context>
<context>
    <name>Throughline::ProblemListModel</name>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>Line %1, column %2 of the saved file: %3</source>
        <translation>Zeile %1, Spalte %2 der gespeicherten Datei: %3</translation>
    </message>
</context>
<context>
    <name>Throughline::ReportCharts</name>
    <message>
        <source>concurrency (requests in flight)</source>
        <translation>Nebenläufigkeit (laufende Anfragen)</translation>
    </message>
    <message>
        <source>request rate (req/s)</source>
        <translation>Anfragerate (Anfr./s)</translation>
    </message>
    <message>
        <source>%1: throughput vs interactivity</source>
        <translation>%1: Durchsatz vs. Interaktivität</translation>
    </message>
    <message>
        <source>output tokens/s per GPU</source>
        <translation>Ausgabe-Tokens/s pro GPU</translation>
    </message>
    <message>
        <source>tok/s per user (1000 / TPOT p90)</source>
        <translation>Tok./s pro Nutzer (1000 / TPOT p90)</translation>
    </message>
    <message>
        <source>%1: %2 p90 vs load</source>
        <translation>%1: %2 p90 vs. Last</translation>
    </message>
    <message>
        <source>%1 p90 (ms)</source>
        <translation>%1 p90 (ms)</translation>
    </message>
    <message>
        <source>mean (p90 needs n ≥ 100, n=%1)</source>
        <translation>Mittelwert (p90 braucht n ≥ 100, n=%1)</translation>
    </message>
    <message>
        <source>%1: throughput vs load</source>
        <translation>%1: Durchsatz vs. Last</translation>
    </message>
    <message>
        <source>%1: %2 (server) vs load</source>
        <translation>%1: %2 (Server) vs. Last</translation>
    </message>
    <message>
        <source>Bars: each point&apos;s %1 % confidence intervals (throughput: block bootstrap over the window; percentiles: order-statistic bounds). A bar that runs to the chart&apos;s edge without a cap is open: the sample cannot bound that side.</source>
        <translation>Balken: die %1-%-Konfidenzintervalle jedes Punkts (Durchsatz: Block-Bootstrap über das Fenster; Perzentile: Ordnungsstatistik-Grenzen). Ein Balken, der ohne Abschluss bis zum Diagrammrand reicht, ist offen: die Stichprobe kann diese Seite nicht begrenzen.</translation>
    </message>
</context>
<context>
    <name>Throughline::ReportComposer</name>
    <message>
        <source>scenario SLO</source>
        <translation>Szenario-SLO</translation>
    </message>
    <message>
        <source>run %1 %2</source>
        <translation>Lauf %1 %2</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message numerus="yes">
        <source>%n fields</source>
        <translation>
            <numerusform>%n Feld</numerusform>
            <numerusform>%n Felder</numerusform>
        </translation>
    </message>
    <message>
        <source>--ready-since moment</source>
        <translation>Zeitpunkt von --ready-since</translation>
    </message>
    <message>
        <source>run start</source>
        <translation>Laufbeginn</translation>
    </message>
    <message>
        <source>scenario start</source>
        <translation>Szenariobeginn</translation>
    </message>
    <message>
        <source>Time to ready (s)</source>
        <translation>Zeit bis bereit (s)</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>nicht bereit</translation>
    </message>
    <message>
        <source>Measured from</source>
        <translation>Gemessen ab</translation>
    </message>
    <message>
        <source>Polls (/health, /v1/models)</source>
        <translation>Abfragen (/health, /v1/models)</translation>
    </message>
    <message>
        <source>%1 every %2 s</source>
        <translation>%1 alle %2 s</translation>
    </message>
    <message>
        <source>First request TTFT (ms)</source>
        <translation>TTFT der ersten Anfrage (ms)</translation>
    </message>
    <message>
        <source>First request E2E (ms)</source>
        <translation>E2E der ersten Anfrage (ms)</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>ungültig</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>kein Ziel</translation>
    </message>
    <message>
        <source>inconclusive</source>
        <translation>nicht entscheidbar</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht gelaufen</translation>
    </message>
    <message>
        <source>(unnamed campaign)</source>
        <translation>(unbenannte Kampagne)</translation>
    </message>
    <message>
        <source>Benchmark report: %1</source>
        <translation>Benchmark-Bericht: %1</translation>
    </message>
    <message numerus="yes">
        <source>Campaign: %1 · %n scenario(s) · run %2 · started %3 UTC%4</source>
        <translation>
            <numerusform>Kampagne: %1 · %n Szenario · Lauf %2 · gestartet %3 UTC%4</numerusform>
            <numerusform>Kampagne: %1 · %n Szenarien · Lauf %2 · gestartet %3 UTC%4</numerusform>
        </translation>
    </message>
    <message>
        <source>Endpoint: simulated (built-in performance model, time scale %1): model estimates, not measurements of real hardware</source>
        <translation>Endpunkt: simuliert (eingebautes Leistungsmodell, Zeitfaktor %1): Modellschätzungen, keine Messungen echter Hardware</translation>
    </message>
    <message>
        <source>Endpoint: %1 (measured against a live server; source %2)</source>
        <translation>Endpunkt: %1 (gegen einen laufenden Server gemessen; Quelle %2)</translation>
    </message>
    <message>
        <source>real server</source>
        <translation>echter Server</translation>
    </message>
    <message>
        <source>%1 cores</source>
        <translation>%1 Kerne</translation>
    </message>
    <message>
        <source>Throughline %1</source>
        <translation>Throughline %1</translation>
    </message>
    <message>
        <source>Environment: %1</source>
        <translation>Umgebung: %1</translation>
    </message>
    <message>
        <source>Headline frontier per phase</source>
        <translation>Leitkurve je Phase</translation>
    </message>
    <message>
        <source>Every deployment of a phase overlaid. Ringed: the operating point. Hollow: an invalid point or one drawn at TPOT mean because p90 is not reportable below n = 100.</source>
        <translation>Alle Deployments einer Phase übereinander. Umringt: der Betriebspunkt. Hohl: ein ungültiger Punkt oder einer beim TPOT-Mittelwert, weil p90 unter n = 100 nicht berichtet wird.</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Model / backend / deployment</source>
        <translation>Modell / Backend / Deployment</translation>
    </message>
    <message>
        <source>Verdicts (model × deployment × phase)</source>
        <translation>Urteile (Modell × Deployment × Phase)</translation>
    </message>
    <message>
        <source>The numbers that decide (at each operating point)</source>
        <translation>Die entscheidenden Zahlen (am jeweiligen Betriebspunkt)</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Operating point</source>
        <translation>Betriebspunkt</translation>
    </message>
    <message>
        <source>Out tok/s/GPU</source>
        <translation>Ausg. Tok./s/GPU</translation>
    </message>
    <message>
        <source>TTFT p90 ms</source>
        <translation>TTFT p90 ms</translation>
    </message>
    <message>
        <source>TPOT p90 ms</source>
        <translation>TPOT p90 ms</translation>
    </message>
    <message>
        <source>Goodput req/s</source>
        <translation>Goodput Anfr./s</translation>
    </message>
    <message>
        <source>Operating point: the highest-throughput valid point that meets the scenario&apos;s SLOs. Throughput targets are judged there, slo targets at the designated point; baseline targets pass at ≥ 95 % of the baseline.</source>
        <translation>Betriebspunkt: der gültige Punkt mit dem höchsten Durchsatz, der die SLOs des Szenarios erfüllt. Durchsatzziele werden dort beurteilt, SLO-Ziele am festgelegten Punkt; Baseline-Ziele sind ab ≥ 95 % der Baseline bestanden.</translation>
    </message>
    <message>
        <source>Phase %1 (ISL %2 / OSL %3)</source>
        <translation>Phase %1 (ISL %2 / OSL %3)</translation>
    </message>
    <message>
        <source>peak KV cache %</source>
        <translation>KV-Cache-Spitze %</translation>
    </message>
    <message>
        <source>mean waiting requests</source>
        <translation>wartende Anfragen (Mittel)</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>OK/sent</source>
        <translation>OK/gesendet</translation>
    </message>
    <message>
        <source>Window s</source>
        <translation>Fenster s</translation>
    </message>
    <message>
        <source>E2E p90 ms</source>
        <translation>E2E p90 ms</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>Gültigkeit</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Cmp</source>
        <translation>Vgl.</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Margin %</source>
        <translation>Abstand %</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Point %1 (%2): %3</source>
        <translation>Punkt %1 (%2): %3</translation>
    </message>
    <message>
        <source>Server telemetry per point</source>
        <translation>Server-Telemetrie je Punkt</translation>
    </message>
    <message>
        <source>Peak KV %</source>
        <translation>KV-Spitze %</translation>
    </message>
    <message>
        <source>Mean waiting</source>
        <translation>Wartend (Mittel)</translation>
    </message>
    <message>
        <source>Peak waiting</source>
        <translation>Wartend (Spitze)</translation>
    </message>
    <message>
        <source>Scrapes failed</source>
        <translation>Abrufe fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stalled streams</source>
        <translation>Hängende Streams</translation>
    </message>
    <message>
        <source>GPU power W</source>
        <translation>GPU-Leistung W</translation>
    </message>
    <message>
        <source>Energy J/token</source>
        <translation>Energie J/Token</translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation>Kaltstart</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>Angabe</translation>
    </message>
    <message>
        <source>report generated (UTC)</source>
        <translation>Bericht erstellt (UTC)</translation>
    </message>
    <message>
        <source>report tool version</source>
        <translation>Version des Berichtswerkzeugs</translation>
    </message>
    <message>
        <source>campaign sha256</source>
        <translation>Kampagne sha256</translation>
    </message>
    <message>
        <source>tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <source>notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Appendix A: provenance</source>
        <translation>Anhang A: Herkunft</translation>
    </message>
    <message>
        <source>What produced these numbers: the campaign, the engine, the host and each server as recorded with the run.</source>
        <translation>Was diese Zahlen erzeugt hat: Kampagne, Engine, Rechner und jeder Server, wie mit dem Lauf aufgezeichnet.</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Appendix B: metric definitions</source>
        <translation>Anhang B: Metrikdefinitionen</translation>
    </message>
    <message>
        <source>Definition</source>
        <translation>Definition</translation>
    </message>
    <message>
        <source>Appendix C: validity notes</source>
        <translation>Anhang C: Hinweise zur Gültigkeit</translation>
    </message>
    <message>
        <source>A point is valid when no flag is raised. window_short: measurement window shorter than max(60 s, 3 × median E2E) (configurable for demos); low_sample: fewer than 100 completed requests or a percentile below its minimum n (p90 needs 100, p99 1,000, p99.9 10,000); error_rate: more than 1 % of measured requests failed; truncated: requests cancelled at the maximum duration; client_bound: the client&apos;s own error budget exceeded (CPU above 85 %, its send path blocked for more than 5 % of the point and 100 ms, an added delay above 5 ms) or the achieved load below 90 % of the target; shard_skew, shard_late, shard_missing (a merged cluster run): shards started more than 50 ms apart, a shard began more than 250 ms after its slot, a shard is missing. Invalid points are never operating points; charts draw them hollow.</source>
        <translation>Ein Punkt ist gültig, wenn kein Merkmal gesetzt ist. window_short: Messfenster kürzer als max(60 s, 3 × Median-E2E) (für Demos einstellbar); low_sample: weniger als 100 abgeschlossene Anfragen oder ein Perzentil unter seinem Mindest-n (p90 braucht 100, p99 1.000, p99.9 10.000); error_rate: mehr als 1 % der gemessenen Anfragen fehlgeschlagen; truncated: Anfragen bei der Höchstdauer abgebrochen; client_bound: das eigene Fehlerbudget des Clients überschritten (CPU über 85 %, Sendepfad länger als 5 % des Punkts und 100 ms blockiert, hinzugefügte Verzögerung über 5 ms) oder erreichte Last unter 90 % des Ziels; shard_skew, shard_late, shard_missing (ein zusammengeführter Cluster-Lauf): Shards mehr als 50 ms versetzt gestartet, ein Shard mehr als 250 ms nach seinem Zeitfenster begonnen, ein Shard fehlt. Ungültige Punkte sind nie Betriebspunkte; Diagramme zeichnen sie hohl.</translation>
    </message>
    <message>
        <source>Every point of this run is valid.</source>
        <translation>Jeder Punkt dieses Laufs ist gültig.</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Merkmale</translation>
    </message>
    <message>
        <source>Appendix D: per-point details</source>
        <translation>Anhang D: Details je Punkt</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Client CPU %</source>
        <translation>Client-CPU %</translation>
    </message>
    <message>
        <source>Lateness p99 ms</source>
        <translation>Verspätung p99 ms</translation>
    </message>
    <message>
        <source>TTFT p50</source>
        <translation>TTFT p50</translation>
    </message>
    <message>
        <source>TTFT p99</source>
        <translation>TTFT p99</translation>
    </message>
    <message>
        <source>TPOT p50</source>
        <translation>TPOT p50</translation>
    </message>
    <message>
        <source>TPOT p99</source>
        <translation>TPOT p99</translation>
    </message>
    <message>
        <source>E2E p50</source>
        <translation>E2E p50</translation>
    </message>
    <message>
        <source>Chunk gap p99</source>
        <translation>Chunk-Abstand p99</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>Anfr./s</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>abgestürzt</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>Name (unit)</source>
        <translation>Name (Einheit)</translation>
    </message>
    <message>
        <source>Distributions are summarised by p50, p90, p95, p99 and p99.9 (percentiles), mean, min, max, std (population standard deviation) and n (number of samples); a percentile is reported only from its minimum n on (p90: 100, p99: 1,000, p99.9: 10,000).</source>
        <translation>Verteilungen werden durch p50, p90, p95, p99 und p99.9 (Perzentile), mean (Mittelwert), min, max, std (Standardabweichung der Grundgesamtheit) und n (Anzahl der Werte) zusammengefasst; ein Perzentil wird erst ab seinem Mindest-n angegeben (p90: 100, p99: 1.000, p99.9: 10.000).</translation>
    </message>
    <message>
        <source>Server telemetry over time</source>
        <translation>Server-Telemetrie über die Zeit</translation>
    </message>
    <message>
        <source>As scraped during the scenario (peaks kept when thinned for print). Shaded: each load point&apos;s measurement window, labelled with its load.</source>
        <translation>Wie während des Szenarios abgefragt (beim Ausdünnen für den Druck bleiben Spitzen erhalten). Schattiert: das Messfenster jedes Lastpunkts, beschriftet mit seiner Last.</translation>
    </message>
    <message>
        <source>info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>SLO</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>informational</source>
        <translation>informativ</translation>
    </message>
    <message>
        <source>Capacity and cost</source>
        <translation>Kapazität und Kosten</translation>
    </message>
    <message>
        <source>not met</source>
        <translation>nicht erfüllt</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Deployments, cheapest per 1M output tokens first</source>
        <translation>Deployments, das günstigste pro 1 Mio. Ausgabe-Tokens zuerst</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>Deployment</translation>
    </message>
    <message>
        <source>Stored point</source>
        <translation>Gespeicherter Punkt</translation>
    </message>
    <message>
        <source>tok/s/GPU</source>
        <translation>Tok/s/GPU</translation>
    </message>
    <message>
        <source>Users/GPU</source>
        <translation>Nutzer/GPU</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>Replikate</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>$/1M (point)</source>
        <translation>$/1 Mio. (Punkt)</translation>
    </message>
    <message>
        <source>$/1M (demand)</source>
        <translation>$/1 Mio. (Bedarf)</translation>
    </message>
    <message>
        <source>kWh/1M</source>
        <translation>kWh/1 Mio.</translation>
    </message>
    <message>
        <source>Replicas = ceil(demand × (1 + headroom) ÷ the point&apos;s throughput); GPUs = replicas × the measured deployment&apos;s GPUs (prefill + decode when disaggregated). $ per 1M at the point = GPUs × price ÷ (tok/s × 3,600) × 10⁶; at the demand it includes rounding and headroom. Nothing is interpolated between measured points.</source>
        <translation>Replikate = ceil(Bedarf × (1 + Reserve) ÷ Durchsatz des Punkts); GPUs = Replikate × GPUs des gemessenen Deployments (Prefill + Decode bei Disaggregation). $ pro 1 Mio. am Punkt = GPUs × Preis ÷ (Tok/s × 3.600) × 10⁶; beim Bedarf sind Rundung und Reserve enthalten. Zwischen gemessenen Punkten wird nichts interpoliert.</translation>
    </message>
    <message>
        <source>the tier is not met at the closest point</source>
        <translation>die Stufe ist am nächstgelegenen Punkt nicht erfüllt</translation>
    </message>
    <message>
        <source>Tier at the point and the binding constraint</source>
        <translation>Stufe am Punkt und bindende Grenze</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Tier at the point (95 % interval)</source>
        <translation>Stufe am Punkt (95-%-Intervall)</translation>
    </message>
    <message>
        <source>Binding constraint</source>
        <translation>Bindende Grenze</translation>
    </message>
    <message>
        <source>Prices and power</source>
        <translation>Preise und Leistung</translation>
    </message>
    <message>
        <source>Price (kind, provider, date)</source>
        <translation>Preis (Art, Anbieter, Datum)</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <source>Price source: %1</source>
        <translation>Preisquelle: %1</translation>
    </message>
    <message>
        <source>Sensitivity</source>
        <translation>Sensitivität</translation>
    </message>
    <message>
        <source>%1 matches the cheapest at %2/GPU-hour (now %3)</source>
        <translation>%1 gleicht das günstigste bei %2/GPU-Stunde aus (jetzt %3)</translation>
    </message>
    <message>
        <source>Price (%1; $ per 1M output tokens is proportional to the price): %2.</source>
        <translation>Preis (%1; $ pro 1 Mio. Ausgabe-Tokens ist proportional zum Preis): %2.</translation>
    </message>
    <message>
        <source>MLPerf Endpoints curves</source>
        <translation>MLPerf-Endpoints-Kurven</translation>
    </message>
    <message>
        <source>Rules preset %1. The frontier is the step function of the valid points: at an interactivity x, the best system throughput of any point at least that interactive (not interpolated). Coordinates as the rules define them: system tokens/s from requests issued in the window, tokens/s per user = 1000 / p90 of TPOT without TTFT. Shaded: the plan&apos;s concurrency regions.</source>
        <translation>Regel-Voreinstellung %1. Die Front ist die Stufenfunktion der gültigen Punkte: bei einer Interaktivität x der beste Systemdurchsatz aller Punkte, die mindestens so interaktiv sind (nicht interpoliert). Koordinaten wie in den Regeln: System-Tokens/s aus den im Fenster gesendeten Anfragen, Tokens/s pro Nutzer = 1000 / p90 der TPOT ohne TTFT. Schattiert: die Nebenläufigkeitsbereiche des Plans.</translation>
    </message>
    <message>
        <source>No valid point: no frontier.</source>
        <translation>Kein gültiger Punkt: keine Front.</translation>
    </message>
    <message>
        <source>Area under the frontier</source>
        <translation>Fläche unter der Front</translation>
    </message>
    <message>
        <source>%1 tok/s × tok/s per user over 0–%2 tok/s per user</source>
        <translation>%1 tok/s × tok/s pro Nutzer über 0–%2 tok/s pro Nutzer</translation>
    </message>
    <message>
        <source>Throughput at %1 tok/s per user</source>
        <translation>Durchsatz bei %1 tok/s pro Nutzer</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 tok/s</translation>
    </message>
    <message>
        <source>Frontier</source>
        <translation>Front</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>across repeats</source>
        <translation>über Wiederholungen</translation>
    </message>
    <message>
        <source>within the run</source>
        <translation>innerhalb des Laufs</translation>
    </message>
    <message>
        <source>Across repeats: the mean over a load&apos;s repeats with its %1 % Student-t interval. A check at a repeated load is judged on the wider of this interval and the judged repeat&apos;s own; the checks say which.</source>
        <translation>Über Wiederholungen: der Mittelwert über die Wiederholungen einer Last mit seinem %1-%-Student-t-Intervall. Eine Prüfung an einer wiederholten Last wird am breiteren dieses Intervalls und des eigenen der beurteilten Wiederholung beurteilt; die Prüfungen sagen, an welchem.</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>Intervall</translation>
    </message>
    <message>
        <source>%1 (p90 %2)</source>
        <translation>%1 (p90 %2)</translation>
    </message>
    <message>
        <source>matched by order and time (the server publishes engine ids only)</source>
        <translation>nach Reihenfolge und Zeit zugeordnet (der Server veröffentlicht nur Engine-IDs)</translation>
    </message>
    <message>
        <source>matched by the request id the client sent</source>
        <translation>über die Anfrage-ID zugeordnet, die der Client sandte</translation>
    </message>
    <message>
        <source>read from each request&apos;s own response</source>
        <translation>aus der eigenen Antwort jeder Anfrage gelesen</translation>
    </message>
    <message>
        <source>Server timing: %1, %2; %3 requests carried it, %4 successful ones did not; %5 measured requests summarised.</source>
        <translation>Serverzeiten: %1, %2; %3 Anfragen trugen sie, %4 erfolgreiche nicht; %5 gemessene Anfragen zusammengefasst.</translation>
    </message>
    <message>
        <source>The server&apos;s clock was aligned from the requests&apos; own send and receive times; parts marked ± cross the two clocks and are good to ±%1 ms.</source>
        <translation>Die Uhr des Servers wurde aus den Sende- und Empfangszeiten der Anfragen selbst abgeglichen; mit ± markierte Teile überspannen beide Uhren und sind auf ±%1 ms genau.</translation>
    </message>
    <message>
        <source>The server publishes durations only: no part crosses the two clocks.</source>
        <translation>Der Server veröffentlicht nur Dauern: kein Teil überspannt beide Uhren.</translation>
    </message>
    <message>
        <source>Where the time goes</source>
        <translation>Wohin die Zeit geht</translation>
    </message>
    <message>
        <source>Each request&apos;s latency split into the client&apos;s, the network&apos;s and the server&apos;s parts, from the server&apos;s own per-request timing joined to the client&apos;s requests. Measured: from timestamps of one clock; derived: a remainder; the bars stack the parts&apos; means over the point&apos;s measured requests (warm-up and failed requests left out).</source>
        <translation>Die Latenz jeder Anfrage, aufgeteilt in die Teile des Clients, des Netzes und des Servers, aus den eigenen Zeiten des Servers je Anfrage, den Anfragen des Clients zugeordnet. Gemessen: aus Zeitstempeln einer Uhr; abgeleitet: ein Rest; die Balken stapeln die Mittelwerte der Teile über die gemessenen Anfragen des Punkts (Aufwärm- und fehlgeschlagene Anfragen ausgenommen).</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>Teil</translation>
    </message>
    <message>
        <source>Obtained</source>
        <translation>Ermittelt</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
</context>
<context>
    <name>Throughline::ReportDoc</name>
    <message>
        <source>Page %1 of %2</source>
        <translation>Seite %1 von %2</translation>
    </message>
</context>
<context>
    <name>Throughline::ReportWriter</name>
    <message>
        <source>Throughline report %1</source>
        <translation>Throughline-Bericht %1</translation>
    </message>
    <message>
        <source>Throughline report · %1 · run %2</source>
        <translation>Throughline-Bericht · %1 · Lauf %2</translation>
    </message>
    <message>
        <source>Throughline comparison %1</source>
        <translation>Throughline-Vergleich %1</translation>
    </message>
    <message>
        <source>Throughline comparison · %1 · runs %2</source>
        <translation>Throughline-Vergleich · %1 · Läufe %2</translation>
    </message>
</context>
<context>
    <name>Throughline::RunComparison</name>
    <message>
        <source>output tokens/s per GPU</source>
        <translation>Ausgabe-Tokens/s pro GPU</translation>
    </message>
    <message>
        <source>tokens/s per user (1000 / TPOT p90)</source>
        <translation>Tokens/s pro Nutzer (1000 / TPOT p90)</translation>
    </message>
    <message>
        <source>tokens/s per user (1000 / TPOT %1)</source>
        <translation>Tokens/s pro Nutzer (1000 / TPOT %1)</translation>
    </message>
    <message>
        <source>, re-derived %1</source>
        <translation>, neu abgeleitet %1</translation>
    </message>
    <message>
        <source>, stored %1</source>
        <translation>, gespeichert %1</translation>
    </message>
    <message>
        <source>TTFT p99 (ms)</source>
        <translation>TTFT p99 (ms)</translation>
    </message>
    <message>
        <source>TPOT p99 (ms)</source>
        <translation>TPOT p99 (ms)</translation>
    </message>
    <message>
        <source>phase (operating point)</source>
        <translation>Phase (Betriebspunkt)</translation>
    </message>
    <message>
        <source>(no phase)</source>
        <translation>(keine Phase)</translation>
    </message>
    <message>
        <source>, re-derived</source>
        <translation>, neu abgeleitet</translation>
    </message>
    <message>
        <source>output tokens/s per decode GPU</source>
        <translation>Ausgabe-Tokens/s pro Decode-GPU</translation>
    </message>
    <message>
        <source>output tokens/s (total)</source>
        <translation>Ausgabe-Tokens/s (gesamt)</translation>
    </message>
</context>
<context>
    <name>Throughline::RunNotesEditor</name>
    <message>
        <source>Save tags &amp;&amp; notes</source>
        <translation>Tags &amp;&amp; Notizen speichern</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>tags, comma-separated (e.g. nightly, h200)</source>
        <translation>Tags, durch Kommas getrennt (z. B. nightly, h200)</translation>
    </message>
    <message>
        <source>notes about this run</source>
        <translation>Notizen zu diesem Lauf</translation>
    </message>
    <message>
        <source>&amp;Tags:</source>
        <translation>&amp;Tags:</translation>
    </message>
    <message>
        <source>&amp;Notes:</source>
        <translation>&amp;Notizen:</translation>
    </message>
</context>
<context>
    <name>Throughline::RunPage</name>
    <message>
        <source>&amp;Start Run</source>
        <translation>Lauf &amp;starten</translation>
    </message>
    <message>
        <source>Stop &amp;Sending New Requests</source>
        <translation>Keine &amp;neuen Anfragen mehr senden</translation>
    </message>
    <message>
        <source>&amp;Cancel Run</source>
        <translation>Lauf &amp;abbrechen</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>Bereit.</translation>
    </message>
    <message>
        <source>Latency percentiles</source>
        <translation>Latenz-Perzentile</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>Ausgabe-Tokens/s</translation>
    </message>
    <message>
        <source>In-flight requests</source>
        <translation>Laufende Anfragen</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>Expand the campaign and run every scenario (F5)</source>
        <translation>Die Kampagne expandieren und jedes Szenario ausführen (F5)</translation>
    </message>
    <message>
        <source>Cancel now: in-flight requests end as harness-cancelled (Shift+F5)</source>
        <translation>Sofort abbrechen: laufende Anfragen enden als harness-cancelled (Umschalt+F5)</translation>
    </message>
    <message>
        <source>Overall %p%</source>
        <translation>Gesamt %p%</translation>
    </message>
    <message>
        <source>Scenario %p%</source>
        <translation>Szenario %p%</translation>
    </message>
    <message>
        <source>Achieved load (requests in flight, finished requests/s) against the point&apos;s target</source>
        <translation>Erreichte Last (laufende Anfragen, abgeschlossene Anfragen/s) gegenüber dem Zielwert des Lastpunkts</translation>
    </message>
    <message>
        <source>TTFT p50</source>
        <translation>TTFT p50</translation>
    </message>
    <message>
        <source>TTFT p90</source>
        <translation>TTFT p90</translation>
    </message>
    <message>
        <source>TPOT p50</source>
        <translation>TPOT p50</translation>
    </message>
    <message>
        <source>TPOT p90</source>
        <translation>TPOT p90</translation>
    </message>
    <message>
        <source>output tokens/s (by completion)</source>
        <translation>Ausgabe-Tokens/s (nach Abschluss)</translation>
    </message>
    <message>
        <source>Output tokens of requests finishing in each second. The steady-state output_tps of a point is computed from content-event times after the point.</source>
        <translation>Ausgabe-Tokens der in jeder Sekunde abgeschlossenen Anfragen. Das output_tps im eingeschwungenen Zustand eines Lastpunkts wird nach dem Lastpunkt aus den Zeiten der Inhaltsereignisse berechnet.</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>laufend</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>Leerlauf</translation>
    </message>
    <message>
        <source>Run in progress</source>
        <translation>Lauf aktiv</translation>
    </message>
    <message>
        <source>A run is in progress. Cancel it and close?</source>
        <translation>Ein Lauf ist aktiv. Abbrechen und schließen?</translation>
    </message>
    <message numerus="yes">
        <source>The campaign has %n problem(s); fix them in the designer first.</source>
        <translation>
            <numerusform>Die Kampagne hat %n Problem; beheben Sie es zuerst im Entwurf.</numerusform>
            <numerusform>Die Kampagne hat %n Probleme; beheben Sie sie zuerst im Entwurf.</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to run: the matrix is empty.</source>
        <translation>Nichts auszuführen: Die Matrix ist leer.</translation>
    </message>
    <message>
        <source>Cannot expand the matrix: %1</source>
        <translation>Die Matrix kann nicht expandiert werden: %1</translation>
    </message>
    <message>
        <source>Cannot load the target table: %1</source>
        <translation>Die Zieltabelle kann nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>TPOT p%1 ≤ %2 ms</source>
        <translation>TPOT p%1 ≤ %2 ms</translation>
    </message>
    <message>
        <source>%1 target %2</source>
        <translation>%1 Zielwert %2</translation>
    </message>
    <message numerus="yes">
        <source>Starting %n scenario(s)…</source>
        <translation>
            <numerusform>Starte %n Szenario…</numerusform>
            <numerusform>Starte %n Szenarien…</numerusform>
        </translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>cancelling</source>
        <translation>wird abgebrochen</translation>
    </message>
    <message>
        <source>Cancelling: in-flight requests end as harness-cancelled…</source>
        <translation>Abbruch: laufende Anfragen enden als harness-cancelled…</translation>
    </message>
    <message>
        <source>Scenario %1/%2 %3 · %4 · elapsed %5 · ETA %6</source>
        <translation>Szenario %1/%2 %3 · %4 · vergangen %5 · verbleibend %6</translation>
    </message>
    <message>
        <source>running %1/%2</source>
        <translation>läuft %1/%2</translation>
    </message>
    <message>
        <source>In flight %1</source>
        <translation>Laufend %1</translation>
    </message>
    <message>
        <source>In flight %1 of target %2</source>
        <translation>Laufend %1 von Zielwert %2</translation>
    </message>
    <message>
        <source> · %1 req/s finished</source>
        <translation> · %1 Anfragen/s abgeschlossen</translation>
    </message>
    <message>
        <source> (target %1)</source>
        <translation> (Zielwert %1)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Errors by class — %1</source>
        <translation>Fehler nach Klasse — %1</translation>
    </message>
    <message>
        <source>Run failed: %1</source>
        <translation>Lauf fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>⚠ Client-bound: the load generator itself limited the measurement in %1 (CPU, blocked send path, added delay or achieved load below target). Use more workers or a bigger client.</source>
        <translation>⚠ Client-begrenzt: Der Lastgenerator selbst hat die Messung in %1 begrenzt (CPU, blockierter Sendepfad, hinzugefügte Verzögerung oder erreichte Last unter dem Zielwert). Mehr Worker oder einen größeren Client verwenden.</translation>
    </message>
    <message>
        <source>The client&apos;s own error budget, in wall-clock time whatever the simulator&apos;s time scale: how long its send path was blocked (a request due for more than 5 ms and not yet sent), and the delay it added to what it read (p99 of ready sockets waiting in its workers plus its threads&apos; average wait for a CPU). A point blocked for more than 5 % of it and 100 ms, or with more than 5 ms added, is client_bound.</source>
        <translation>Das eigene Fehlerbudget des Clients, in Echtzeit unabhängig vom Zeitfaktor des Simulators: wie lange sein Sendepfad blockiert war (eine Anfrage seit mehr als 5 ms fällig und noch nicht gesendet) und welche Verzögerung er dem Gelesenen hinzufügte (p99 der Wartezeit lesebereiter Sockets in seinen Workern plus die mittlere Wartezeit seiner Threads auf eine CPU). Ein Punkt, dessen Sendepfad mehr als 5 % des Punkts und mehr als 100 ms blockiert war oder der mehr als 5 ms Verzögerung hinzufügte, ist client_bound.</translation>
    </message>
    <message>
        <source>Client error budget (wall clock, worst point): send path blocked %1 % of the point, added delay %2 ms (p99).</source>
        <translation>Fehlerbudget des Clients (Echtzeit, schlechtester Punkt): Sendepfad %1 % des Punkts blockiert, hinzugefügte Verzögerung %2 ms (p99).</translation>
    </message>
    <message>
        <source>Cancelled. Run %1.</source>
        <translation>Abgebrochen. Lauf %1.</translation>
    </message>
    <message>
        <source>Finished. Run %1.</source>
        <translation>Abgeschlossen. Lauf %1.</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>Send no new requests; let in-flight ones finish, then end the run after the current load point (F6). Nothing is cancelled.</source>
        <translation>Keine neuen Anfragen senden; laufende beenden lassen, dann den Lauf nach dem aktuellen Lastpunkt beenden (F6). Nichts wird abgebrochen.</translation>
    </message>
    <message>
        <source>Per second of run time, over requests finishing in it.</source>
        <translation>Je Sekunde Laufzeit, über die in ihr abgeschlossenen Anfragen.</translation>
    </message>
    <message>
        <source>One point per finished load point: x = output tokens/s per GPU, y = 1000 ÷ TPOT p90 (tokens/s per user).</source>
        <translation>Ein Punkt je abgeschlossenem Lastpunkt: x = Ausgabe-Tokens/s pro GPU, y = 1000 ÷ TPOT p90 (Tokens/s pro Nutzer).</translation>
    </message>
    <message>
        <source>finishing in-flight requests</source>
        <translation>laufende Anfragen werden beendet</translation>
    </message>
    <message>
        <source>Stop sending: finishing in-flight requests…</source>
        <translation>Senden gestoppt: laufende Anfragen werden beendet…</translation>
    </message>
    <message numerus="yes">
        <source>Stop sending: finishing in-flight requests… (%n in flight)</source>
        <translation>
            <numerusform>Senden gestoppt: laufende Anfragen werden beendet… (%n laufend)</numerusform>
            <numerusform>Senden gestoppt: laufende Anfragen werden beendet… (%n laufend)</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped after in-flight requests finished. Run %1.</source>
        <translation>Angehalten, nachdem die laufenden Anfragen beendet waren. Lauf %1.</translation>
    </message>
    <message>
        <source>no history database</source>
        <translation>keine Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>Recorded in the history.</source>
        <translation>Im Verlauf gespeichert.</translation>
    </message>
    <message>
        <source>Not recorded in the history: %1</source>
        <translation>Nicht im Verlauf gespeichert: %1</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Server: KV cache and queue</source>
        <translation>Server: KV-Cache und Warteschlange</translation>
    </message>
    <message>
        <source>KV cache %</source>
        <translation>KV-Cache %</translation>
    </message>
    <message>
        <source>KV cache (%)</source>
        <translation>KV-Cache (%)</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>Scraped from the server&apos;s metrics endpoint on the run&apos;s telemetry interval (wall clock): requests in the running batch, requests queued, and KV-cache usage in % (right axis).</source>
        <translation>Vom Metrik-Endpunkt des Servers im Telemetrie-Intervall des Laufs abgefragt (Echtzeit): Anfragen im laufenden Batch, wartende Anfragen und KV-Cache-Belegung in % (rechte Achse).</translation>
    </message>
    <message>
        <source>No server telemetry: scraping is off for this endpoint (telemetry interval 0).</source>
        <translation>Keine Server-Telemetrie: Abfrage für diesen Endpunkt ausgeschaltet (Telemetrie-Intervall 0).</translation>
    </message>
    <message>
        <source>No server telemetry: every scrape failed (%1).</source>
        <translation>Keine Server-Telemetrie: jede Abfrage schlug fehl (%1).</translation>
    </message>
    <message>
        <source>No server telemetry: the server&apos;s metrics have no KV-cache or queue series.</source>
        <translation>Keine Server-Telemetrie: die Metriken des Servers enthalten keine KV-Cache- oder Warteschlangen-Reihen.</translation>
    </message>
</context>
<context>
    <name>Throughline::RunPointsModel</name>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Successful / sent measured requests (warm-up excluded)</source>
        <translation>Erfolgreiche / gesendete gemessene Anfragen (ohne Aufwärmphase)</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Output tok/s/GPU</source>
        <translation>Ausgabe-Tok/s/GPU</translation>
    </message>
    <message>
        <source>tok/s/user p50</source>
        <translation>Tok/s/Nutzer p50</translation>
    </message>
    <message>
        <source>TTFT p90 ms</source>
        <translation>TTFT p90 ms</translation>
    </message>
    <message>
        <source>TPOT p90 ms</source>
        <translation>TPOT p90 ms</translation>
    </message>
    <message>
        <source>Requests ok/sent</source>
        <translation>Anfragen ok/gesendet</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>Gültigkeit</translation>
    </message>
    <message>
        <source>not measured (stopped)</source>
        <translation>nicht gemessen (angehalten)</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Stopped before any request of this point was measured.</source>
        <translation>Angehalten, bevor eine Anfrage dieses Lastpunkts gemessen wurde.</translation>
    </message>
    <message>
        <source>Stopped: no new requests after the stop; the requests in flight finished and are counted (%1 measured).</source>
        <translation>Angehalten: nach dem Stopp keine neuen Anfragen; laufende Anfragen wurden abgeschlossen und zählen (%1 gemessen).</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>This run: %1 % interval %2</source>
        <translation>Dieser Lauf: %1-%-Intervall %2</translation>
    </message>
    <message>
        <source>Across %1 repeats so far: mean %2, %3 % interval %4</source>
        <translation>Über %1 Wiederholungen bisher: Mittelwert %2, %3-%-Intervall %4</translation>
    </message>
</context>
<context>
    <name>Throughline::RunResultsModel</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>✔ pass</source>
        <translation>✔ bestanden</translation>
    </message>
    <message>
        <source>✘ fail</source>
        <translation>✘ nicht bestanden</translation>
    </message>
    <message>
        <source>– no target</source>
        <translation>– kein Ziel</translation>
    </message>
    <message>
        <source>⚠ invalid</source>
        <translation>⚠ ungültig</translation>
    </message>
    <message>
        <source>? inconclusive</source>
        <translation>? nicht entscheidbar</translation>
    </message>
    <message>
        <source>▶ running</source>
        <translation>▶ läuft</translation>
    </message>
    <message>
        <source>■ measured</source>
        <translation>■ gemessen</translation>
    </message>
    <message>
        <source>Every point measured; the verdict comes when the run ends (the targets are judged once over the whole run). Until then the numbers are those of the last measured point.</source>
        <translation>Alle Punkte gemessen; das Urteil folgt am Ende des Laufs (die Ziele werden einmal über den ganzen Lauf geprüft). Bis dahin stehen hier die Werte des zuletzt gemessenen Punkts.</translation>
    </message>
    <message>
        <source>… pending</source>
        <translation>… ausstehend</translation>
    </message>
    <message>
        <source>■ aborted</source>
        <translation>■ abgebrochen</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4: %5 (%6)</source>
        <translation>%1 %2 %3 %4: %5 (%6)</translation>
    </message>
    <message>
        <source>Nothing judged</source>
        <translation>Nichts bewertet</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <source>Output tok/s/GPU</source>
        <translation>Ausgabe-Tok/s/GPU</translation>
    </message>
    <message>
        <source>TTFT p90 (ms)</source>
        <translation>TTFT p90 (ms)</translation>
    </message>
    <message>
        <source>TPOT p90 (ms)</source>
        <translation>TPOT p90 (ms)</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>Gültigkeit</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>■ stopped</source>
        <translation>■ angehalten</translation>
    </message>
    <message>
        <source>– not measured</source>
        <translation>– nicht gemessen</translation>
    </message>
    <message>
        <source>– not run</source>
        <translation>– nicht gelaufen</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Not judged: the scenario did not run all its points. Checks on the measured points:</source>
        <translation>Nicht beurteilt: das Szenario hat nicht alle Lastpunkte durchlaufen. Prüfungen an den gemessenen Punkten:</translation>
    </message>
</context>
<context>
    <name>Throughline::RunTimelineView</name>
    <message>
        <source>Scenario:</source>
        <translation>Szenario:</translation>
    </message>
    <message>
        <source>run time (s)</source>
        <translation>Laufzeit (s)</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>Ausgabe-Tokens/s</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>client, by completion</source>
        <translation>Client, nach Abschluss</translation>
    </message>
    <message>
        <source>TTFT percentiles</source>
        <translation>TTFT-Perzentile</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>TPOT percentiles</source>
        <translation>TPOT-Perzentile</translation>
    </message>
    <message>
        <source>In flight and server queue</source>
        <translation>Laufend und Server-Warteschlange</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>client in flight</source>
        <translation>Client laufend</translation>
    </message>
    <message>
        <source>KV-cache usage</source>
        <translation>KV-Cache-Auslastung</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU-Auslastung</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU-Leistung</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Server prompt tokens/s</source>
        <translation>Server-Prompt-Tokens/s</translation>
    </message>
    <message>
        <source>server generation</source>
        <translation>Server-Generierung</translation>
    </message>
    <message>
        <source>server running</source>
        <translation>Server laufend</translation>
    </message>
    <message>
        <source>server waiting</source>
        <translation>Server wartend</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV-Cache</translation>
    </message>
    <message>
        <source>utilisation</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <source>power</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <source>server prompt</source>
        <translation>Server-Prompt</translation>
    </message>
    <message>
        <source>%1 — not stored</source>
        <translation>%1 — nicht gespeichert</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s), %1 output tokens, buckets of %2 s; %3 telemetry series%4</source>
        <translation>
            <numerusform>%n Anfrage, %1 Ausgabe-Tokens, Intervalle von %2 s; %3 Telemetriereihen%4</numerusform>
            <numerusform>%n Anfragen, %1 Ausgabe-Tokens, Intervalle von %2 s; %3 Telemetriereihen%4</numerusform>
        </translation>
    </message>
    <message>
        <source> (database without telemetry)</source>
        <translation> (Datenbank ohne Telemetrie)</translation>
    </message>
    <message>
        <source>Not recorded for this scenario (no request rows or server telemetry).</source>
        <translation>Für dieses Szenario nicht aufgezeichnet (keine Anfragezeilen oder Server-Telemetrie).</translation>
    </message>
</context>
<context>
    <name>Throughline::RunsTableModel</name>
    <message>
        <source>Started (UTC)</source>
        <translation>Gestartet (UTC)</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>Backends</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Phases</source>
        <translation>Phasen</translation>
    </message>
    <message>
        <source>Scenarios</source>
        <translation>Szenarien</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Run id</source>
        <translation>Lauf-ID</translation>
    </message>
</context>
<context>
    <name>Throughline::ScenarioTableModel</name>
    <message>
        <source>closed C=%1</source>
        <translation>geschlossen C=%1</translation>
    </message>
    <message>
        <source>open %1 req/s</source>
        <translation>offen %1 Anfragen/s</translation>
    </message>
    <message>
        <source>curve MLPerf %1…%2</source>
        <translation>Kurve MLPerf %1…%2</translation>
    </message>
    <message>
        <source>curve log2 %1…%2</source>
        <translation>Kurve log2 %1…%2</translation>
    </message>
    <message>
        <source>search %1…%2</source>
        <translation>Suche %1…%2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>TTFT p%1 ≤ %2 ms</source>
        <translation>TTFT p%1 ≤ %2 ms</translation>
    </message>
    <message>
        <source>TPOT p%1 ≤ %2 ms</source>
        <translation>TPOT p%1 ≤ %2 ms</translation>
    </message>
    <message>
        <source>E2E p%1 ≤ %2 ms</source>
        <translation>E2E p%1 ≤ %2 ms</translation>
    </message>
    <message>
        <source>%1 (simulated)</source>
        <translation>%1 (simuliert)</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>ISL</source>
        <translation>ISL</translation>
    </message>
    <message>
        <source>OSL</source>
        <translation>OSL</translation>
    </message>
    <message>
        <source>Load plan</source>
        <translation>Lastplan</translation>
    </message>
    <message>
        <source>SLO</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
</context>
<context>
    <name>Throughline::SloEditor</name>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>TTFT ≤ ms</source>
        <translation>TTFT ≤ ms</translation>
    </message>
    <message>
        <source>TPOT ≤ ms</source>
        <translation>TPOT ≤ ms</translation>
    </message>
    <message>
        <source>E2E ≤ ms</source>
        <translation>E2E ≤ ms</translation>
    </message>
    <message>
        <source>Percentile</source>
        <translation>Perzentil</translation>
    </message>
    <message>
        <source>Scenarios (key=glob,…)</source>
        <translation>Szenarien (Schlüssel=Muster,…)</translation>
    </message>
    <message>
        <source>Concurrencies</source>
        <translation>Nebenläufigkeiten</translation>
    </message>
    <message>
        <source>Recipe C</source>
        <translation>C laut Rezept</translation>
    </message>
    <message>
        <source>Latency SLOs per phase (empty = no limit; “*” = every phase)</source>
        <translation>Latenz-SLOs je Phase (leer = keine Grenze; „*“ = jede Phase)</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Per-scenario overrides (applied in order)</source>
        <translation>Überschreibungen je Szenario (in Reihenfolge angewendet)</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add SLO</source>
        <translation>SLO hinzufügen</translation>
    </message>
    <message>
        <source>Phase name (or * for all):</source>
        <translation>Name der Phase (oder * für alle):</translation>
    </message>
    <message>
        <source>Remove SLO</source>
        <translation>SLO entfernen</translation>
    </message>
    <message>
        <source>Add override</source>
        <translation>Überschreibung hinzufügen</translation>
    </message>
    <message>
        <source>Remove override</source>
        <translation>Überschreibung entfernen</translation>
    </message>
    <message>
        <source>Edit SLO %1</source>
        <translation>SLO %1 bearbeiten</translation>
    </message>
    <message>
        <source>Edit override</source>
        <translation>Überschreibung bearbeiten</translation>
    </message>
</context>
<context>
    <name>Throughline::TargetMatrix</name>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Operating point</source>
        <translation>Betriebspunkt</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>%1 % interval: [%2, %3]</source>
        <translation>Intervall (%1 %): [%2, %3]</translation>
    </message>
    <message>
        <source>Inconclusive: the value sits on the target; more requests cannot decide it.</source>
        <translation>Nicht entscheidbar: der Wert liegt auf dem Ziel; mehr Anfragen entscheiden es nicht.</translation>
    </message>
    <message>
        <source>Inconclusive: at least %1 requests at the judged point would decide it.</source>
        <translation>Nicht entscheidbar: mindestens %1 Anfragen am beurteilten Punkt würden es entscheiden.</translation>
    </message>
    <message>
        <source>Inconclusive: about %1 requests at the judged point would decide it.</source>
        <translation>Nicht entscheidbar: etwa %1 Anfragen am beurteilten Punkt würden es entscheiden.</translation>
    </message>
    <message>
        <source>Across the load&apos;s repeats (wider than the repeat&apos;s own); the value is their mean.</source>
        <translation>Über die Wiederholungen der Last (breiter als das eigene der Wiederholung); der Wert ist ihr Mittelwert.</translation>
    </message>
    <message>
        <source>The judged repeat&apos;s own (wider than across the load&apos;s repeats).</source>
        <translation>Das eigene der beurteilten Wiederholung (breiter als über die Wiederholungen der Last).</translation>
    </message>
    <message>
        <source>Inconclusive: about %1 repeats of the load would decide it.</source>
        <translation>Nicht entscheidbar: etwa %1 Wiederholungen der Last würden es entscheiden.</translation>
    </message>
</context>
<context>
    <name>Throughline::TargetsPage</name>
    <message>
        <source>User table</source>
        <translation>Benutzertabelle</translation>
    </message>
    <message>
        <source>%1 (shipped, read-only)</source>
        <translation>%1 (mitgeliefert, schreibgeschützt)</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>Copy to user table</source>
        <translation>In Benutzertabelle kopieren</translation>
    </message>
    <message>
        <source>Add row</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation>Zeile entfernen</translation>
    </message>
    <message>
        <source>Import JSON…</source>
        <translation>JSON importieren…</translation>
    </message>
    <message>
        <source>Import targets</source>
        <translation>Ziele importieren</translation>
    </message>
    <message>
        <source>Targets (*.json)</source>
        <translation>Ziele (*.json)</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>JSON exportieren…</translation>
    </message>
    <message>
        <source>Export targets</source>
        <translation>Ziele exportieren</translation>
    </message>
    <message>
        <source>Use as baseline</source>
        <translation>Als Referenz verwenden</translation>
    </message>
    <message>
        <source>Use run as baseline</source>
        <translation>Lauf als Referenz verwenden</translation>
    </message>
    <message>
        <source>An editable copy of the table shown</source>
        <translation>Eine bearbeitbare Kopie der angezeigten Tabelle</translation>
    </message>
    <message>
        <source>Add a row to the user table</source>
        <translation>Der Benutzertabelle eine Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Remove the selected row of the user table</source>
        <translation>Die ausgewählte Zeile der Benutzertabelle entfernen</translation>
    </message>
    <message>
        <source>Read a throughline.targets/1 file into the user table</source>
        <translation>Eine throughline.targets/1-Datei in die Benutzertabelle einlesen</translation>
    </message>
    <message>
        <source>Write the table shown as a throughline.targets/1 file</source>
        <translation>Die angezeigte Tabelle als throughline.targets/1-Datei schreiben</translation>
    </message>
    <message>
        <source>Pass/fail matrix of run:</source>
        <translation>Bestanden/nicht bestanden-Matrix des Laufs:</translation>
    </message>
    <message>
        <source>Make this run the campaign&apos;s baseline: its operating points become baseline rows (pass at ≥ 95 %); undo with Ctrl+Z</source>
        <translation>Diesen Lauf zur Referenz der Kampagne machen: seine Betriebspunkte werden Referenzzeilen (bestanden ab ≥ 95 %); rückgängig mit Strg+Z</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>No stored run yet. Run the campaign (Run ▸ Start Run, F5) or import results on the History page; the pass/fail matrix of the run appears here.</source>
        <translation>Noch kein gespeicherter Lauf. Kampagne ausführen (Lauf ▸ Lauf starten, F5) oder auf der Seite Verlauf Ergebnisse importieren; die Bestanden/nicht bestanden-Matrix des Laufs erscheint hier.</translation>
    </message>
    <message>
        <source>Use run %1 as baseline</source>
        <translation>Lauf %1 als Referenz verwenden</translation>
    </message>
    <message>
        <source>No baseline run: “Use as baseline” makes the run shown the campaign&apos;s baseline (targets.baseline_run).</source>
        <translation>Kein Referenzlauf: „Als Referenz verwenden“ macht den angezeigten Lauf zur Referenz der Kampagne (targets.baseline_run).</translation>
    </message>
    <message>
        <source>Baseline run %1 of the campaign cannot be read: %2</source>
        <translation>Referenzlauf %1 der Kampagne kann nicht gelesen werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>Baseline: run %1 (the campaign&apos;s targets.baseline_run) adds %n baseline row(s) to the table shown (pass at ≥ 95 % of its throughput).</source>
        <translation>
            <numerusform>Referenz: Lauf %1 (targets.baseline_run der Kampagne) fügt der angezeigten Tabelle %n Referenzzeile hinzu (bestanden ab ≥ 95 % seines Durchsatzes).</numerusform>
            <numerusform>Referenz: Lauf %1 (targets.baseline_run der Kampagne) fügt der angezeigten Tabelle %n Referenzzeilen hinzu (bestanden ab ≥ 95 % seines Durchsatzes).</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 has no scenarios to judge.</source>
        <translation>Lauf %1 hat keine Szenarien zum Bewerten.</translation>
    </message>
</context>
<context>
    <name>Throughline::TargetsTableModel</name>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Stat</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Cmp</source>
        <translation>Vgl.</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>Throughline::TelemetryCharts</name>
    <message>
        <source>KV-cache usage over time</source>
        <translation>KV-Cache-Belegung über die Zeit</translation>
    </message>
    <message>
        <source>KV cache used (%)</source>
        <translation>KV-Cache belegt (%)</translation>
    </message>
    <message>
        <source>Requests in the server over time</source>
        <translation>Anfragen im Server über die Zeit</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>GPU power over time</source>
        <translation>GPU-Leistungsaufnahme über die Zeit</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV-Cache</translation>
    </message>
    <message>
        <source>running</source>
        <translation>laufend</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartend</translation>
    </message>
    <message numerus="yes">
        <source>all %n GPU(s)</source>
        <translation>
            <numerusform>die %n GPU</numerusform>
            <numerusform>alle %n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>time in the scenario (s)</source>
        <translation>Zeit im Szenario (s)</translation>
    </message>
</context>
<context>
    <name>Throughline::TimeSeriesPlot</name>
    <message>
        <source>run time (s)</source>
        <translation>Laufzeit (s)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Desktop workbench for LLM-inference benchmark campaigns</source>
        <translation>Desktop-Werkbank für Benchmark-Kampagnen der LLM-Inferenz</translation>
    </message>
    <message>
        <source>History database.</source>
        <translation>Verlaufsdatenbank.</translation>
    </message>
    <message>
        <source>Do not restore the window layout.</source>
        <translation>Die Fensteranordnung nicht wiederherstellen.</translation>
    </message>
    <message>
        <source>Interface language: system, en or de.</source>
        <translation>Sprache der Oberfläche: system, en oder de.</translation>
    </message>
    <message>
        <source>Campaign file to open.</source>
        <translation>Zu öffnende Kampagnendatei.</translation>
    </message>
</context>
<context>
    <name>Throughline::ClusterDialog</name>
    <message>
        <source>Run on a Cluster</source>
        <translation>Auf einem Cluster ausführen</translation>
    </message>
    <message>
        <source>Splits the campaign over N client machines: every shard runs every load point with 1/N of its load in the same time slot; the merge step combines the shards&apos; bundles into one run for History.</source>
        <translation>Teilt die Kampagne auf N Client-Rechner auf: Jeder Shard fährt jeden Lastpunkt mit 1/N seiner Last im selben Zeitfenster; der Merge-Schritt fasst die Bundles der Shards zu einem Lauf für den Verlauf zusammen.</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>Slot</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Per shard</source>
        <translation>Pro Shard</translation>
    </message>
    <message>
        <source>Write Files</source>
        <translation>Dateien schreiben</translation>
    </message>
    <message>
        <source>Slurm job array</source>
        <translation>Slurm-Job-Array</translation>
    </message>
    <message>
        <source>Kubernetes Indexed Job</source>
        <translation>Kubernetes-Indexed-Job</translation>
    </message>
    <message>
        <source>Scheduler:</source>
        <translation>Scheduler:</translation>
    </message>
    <message>
        <source>Shards (client machines):</source>
        <translation>Shards (Client-Rechner):</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Seconds per load point: longer than the slowest point plus setup and drain (throughline-cli run CAMPAIGN --shard 0/N --plan-only suggests one).</source>
        <translation>Sekunden pro Lastpunkt: länger als der langsamste Punkt plus Auf- und Abbau (throughline-cli run KAMPAGNE --shard 0/N --plan-only schlägt einen Wert vor).</translation>
    </message>
    <message>
        <source>Point slot:</source>
        <translation>Zeitfenster pro Punkt:</translation>
    </message>
    <message>
        <source> min after submission</source>
        <translation> min nach dem Absenden</translation>
    </message>
    <message>
        <source>fixed (UTC):</source>
        <translation>fest (UTC):</translation>
    </message>
    <message>
        <source>Start:</source>
        <translation>Start:</translation>
    </message>
    <message>
        <source>The saved campaign file. Slurm: as the nodes see it (a shared file system).</source>
        <translation>Die gespeicherte Kampagnendatei. Slurm: so, wie die Knoten sie sehen (gemeinsames Dateisystem).</translation>
    </message>
    <message>
        <source>Campaign file:</source>
        <translation>Kampagnendatei:</translation>
    </message>
    <message>
        <source>as in the campaign</source>
        <translation>wie in der Kampagne</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>Endpunkt:</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Folder for the cluster files</source>
        <translation>Ordner für die Cluster-Dateien</translation>
    </message>
    <message>
        <source>Write files to:</source>
        <translation>Dateien schreiben nach:</translation>
    </message>
    <message>
        <source>Slurm</source>
        <translation>Slurm</translation>
    </message>
    <message>
        <source>folder every node sees</source>
        <translation>Ordner, den jeder Knoten sieht</translation>
    </message>
    <message>
        <source>Results folder:</source>
        <translation>Ergebnisordner:</translation>
    </message>
    <message>
        <source>on PATH</source>
        <translation>im PATH</translation>
    </message>
    <message>
        <source>throughline-cli folder:</source>
        <translation>Ordner von throughline-cli:</translation>
    </message>
    <message>
        <source>sbatch options:</source>
        <translation>sbatch-Optionen:</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>Image:</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>Laufname:</translation>
    </message>
    <message>
        <source>The campaign cannot be expanded: %1</source>
        <translation>Die Kampagne lässt sich nicht expandieren: %1</translation>
    </message>
    <message>
        <source>The campaign&apos;s endpoint is the built-in simulator: enter the endpoint of one server, or every shard starts its own simulator.</source>
        <translation>Der Endpunkt der Kampagne ist der eingebaute Simulator: Geben Sie den Endpunkt eines Servers an, sonst startet jeder Shard seinen eigenen Simulator.</translation>
    </message>
    <message numerus="yes">
        <source>%n load point(s), one every %1 s: the run takes %2 min from the start.</source>
        <translation>
            <numerusform>%n Lastpunkt, einer alle %1 s: Der Lauf dauert %2 min ab dem Start.</numerusform>
            <numerusform>%n Lastpunkte, einer alle %1 s: Der Lauf dauert %2 min ab dem Start.</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the campaign first: the shards read the saved campaign file.</source>
        <translation>Speichern Sie die Kampagne zuerst: Die Shards lesen die gespeicherte Kampagnendatei.</translation>
    </message>
    <message>
        <source>Choose a folder to write the files to.</source>
        <translation>Wählen Sie einen Ordner für die Dateien.</translation>
    </message>
    <message>
        <source>Cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Wrote %1 into %2. Submit with:
%3
Then import the merged bundle in History (Import…).</source>
        <translation>%1 in %2 geschrieben. Absenden mit:
%3
Dann das zusammengeführte Bundle im Verlauf importieren (Importieren…).</translation>
    </message>
</context>
<context>
    <name>Throughline::ValidityNotes</name>
    <message>
        <source>telemetry: %1 of %2 scrapes failed (last: %3)</source>
        <translation>Telemetrie: %1 von %2 Abfragen fehlgeschlagen (zuletzt: %3)</translation>
    </message>
    <message>
        <source>telemetry: %1 of %2 scrapes failed</source>
        <translation>Telemetrie: %1 von %2 Abfragen fehlgeschlagen</translation>
    </message>
    <message>
        <source>stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms, request %5)</source>
        <translation>Stillstände: %1 von %2 Streams empfingen länger als %3 ms nichts (längster %4 ms, Anfrage %5)</translation>
    </message>
    <message>
        <source>stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms)</source>
        <translation>Stillstände: %1 von %2 Streams empfingen länger als %3 ms nichts (längster %4 ms)</translation>
    </message>
    <message>
        <source>replica %1 much slower than the others: %2</source>
        <translation>Replikat %1 deutlich langsamer als die anderen: %2</translation>
    </message>
    <message>
        <source>%1 %2 ms is %3× the other replicas&apos; median %4 ms</source>
        <translation>%1 %2 ms ist das %3-Fache des Medians der anderen Replikate (%4 ms)</translation>
    </message>
    <message>
        <source>output %1 tokens/s is %2× below the other replicas&apos; median %3</source>
        <translation>Ausgabe %1 Tokens/s liegt um das %2-Fache unter dem Median der anderen Replikate (%3)</translation>
    </message>
    <message>
        <source>ISL error: the server counted %1 prompt tokens per request on average (%2 % of %3, max %4); prompt lengths are not what was intended</source>
        <translation>ISL-Fehler: Der Server zählte im Mittel %1 Prompt-Tokens je Anfrage (%2 % von %3, max. %4); die Prompt-Längen sind nicht die beabsichtigten</translation>
    </message>
    <message>
        <source>%1 sent requests are missing from this point: no record came back for 1.5 s after it was cancelled (a starved client), so they are in no statistic.</source>
        <translation>%1 gesendete Anfragen fehlen in diesem Punkt: 1.5 s nach ihrem Abbruch kam kein Datensatz zurück (ein ausgelasteter Client), daher sind sie in keiner Statistik.</translation>
    </message>
    <message>
        <source>chat template %1 could not be read; prompts counted with the model&apos;s own %2</source>
        <translation>Chat-Vorlage %1 nicht lesbar; Prompts mit der modelleigenen Vorlage %2 gezählt</translation>
    </message>
    <message>
        <source>chat template %1 is not a form the formatter knows (Llama 3.1/3.3, DeepSeek V3/R1, gpt-oss harmony, ChatML); prompts counted with the model&apos;s own %2</source>
        <translation>Chat-Vorlage %1 hat keine Form, die der Formatierer kennt (Llama 3.1/3.3, DeepSeek V3/R1, gpt-oss harmony, ChatML); Prompts mit der modelleigenen Vorlage %2 gezählt</translation>
    </message>
    <message>
        <source>chat template %1 counted as %2; the formatter ignores its %3</source>
        <translation>Chat-Vorlage %1 gezählt als %2; der Formatierer übergeht ihre Teile %3</translation>
    </message>
    <message>
        <source>chat template %1 counted as %2</source>
        <translation>Chat-Vorlage %1 gezählt als %2</translation>
    </message>
    <message>
        <source>approximate ISL: tokenizer cache unusable (%1)</source>
        <translation>ISL genähert: Tokenizer-Cache unbrauchbar (%1)</translation>
    </message>
    <message>
        <source>approximate ISL: no tokenizer is known for model %1 (resources/catalog/models_extra.csv)</source>
        <translation>ISL genähert: Für das Modell %1 ist kein Tokenizer bekannt (resources/catalog/models_extra.csv)</translation>
    </message>
    <message>
        <source>approximate ISL: tokenizer %1 not fetched; run `throughline-cli tokenizers fetch`</source>
        <translation>ISL genähert: Tokenizer %1 nicht geladen; `throughline-cli tokenizers fetch` ausführen</translation>
    </message>
    <message>
        <source>approximate ISL: tokenizer %1 failed to load: %2</source>
        <translation>ISL genähert: Tokenizer %1 ließ sich nicht laden: %2</translation>
    </message>
    <message>
        <source>Server timing (%1): %2 of %3 successful requests have none, so they have client-side parts only; first: %4.</source>
        <translation>Serverzeiten (%1): %2 von %3 erfolgreichen Anfragen haben keine und damit nur clientseitige Teile; erste: %4.</translation>
    </message>
    <message>
        <source>Server timing (%1): %2 of %3 successful requests have none, so they have client-side parts only.</source>
        <translation>Serverzeiten (%1): %2 von %3 erfolgreichen Anfragen haben keine und damit nur clientseitige Teile.</translation>
    </message>
    <message>
        <source>Server timing: %1</source>
        <translation>Serverzeiten: %1</translation>
    </message>
</context>
<context>
    <name>Throughline::CapacityNotes</name>
    <message>
        <source>%1 not reported by this point</source>
        <translation>%1 von diesem Punkt nicht gemeldet</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4 %5 %6 [95 % CI %7–%8, %9]</source>
        <translation>%1 %2 %3 %4 %5 %6 [95-%-KI %7–%8, %9]</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4 %5 %6</source>
        <translation>%1 %2 %3 %4 %5 %6</translation>
    </message>
    <message>
        <source>tok/s/user</source>
        <translation>tok/s/Nutzer</translation>
    </message>
    <message>
        <source>conclusive</source>
        <translation>eindeutig</translation>
    </message>
    <message>
        <source>inconclusive</source>
        <translation>nicht eindeutig</translation>
    </message>
    <message>
        <source>concurrency %1 of run %2</source>
        <translation>Nebenläufigkeit %1 von Lauf %2</translation>
    </message>
    <message>
        <source>concurrency %1</source>
        <translation>Nebenläufigkeit %1</translation>
    </message>
    <message>
        <source>point %1 of run %2</source>
        <translation>Punkt %1 von Lauf %2</translation>
    </message>
    <message>
        <source>point %1</source>
        <translation>Punkt %1</translation>
    </message>
    <message>
        <source>none: the most loaded measured point meets the tier (more load was not measured)</source>
        <translation>keine: der am stärksten belastete gemessene Punkt erfüllt die Stufe (mehr Last wurde nicht gemessen)</translation>
    </message>
    <message>
        <source>%1 at the next measured point (%2, %3 tok/s)</source>
        <translation>%1 am nächsten gemessenen Punkt (%2, %3 tok/s)</translation>
    </message>
    <message>
        <source>no deployment meets this tier (%1); the closest is %2 at %3: %4</source>
        <translation>kein Deployment erfüllt diese Stufe (%1); am nächsten kommt %2 bei %3: %4</translation>
    </message>
    <message>
        <source>no deployment meets this tier (%1)</source>
        <translation>kein Deployment erfüllt diese Stufe (%1)</translation>
    </message>
    <message>
        <source>%1 output tok/s</source>
        <translation>%1 Ausgabe-tok/s</translation>
    </message>
    <message>
        <source>%1 concurrent users</source>
        <translation>%1 gleichzeitige Nutzer</translation>
    </message>
    <message>
        <source>%1 requests/s</source>
        <translation>%1 Anfragen/s</translation>
    </message>
    <message>
        <source>no %1 price for GPU %2 from provider %3 (%4 providers for %5: %6)</source>
        <translation>kein %1-Preis für GPU %2 vom Anbieter %3 (%4-Anbieter für %5: %6)</translation>
    </message>
    <message>
        <source>no %1 price for GPU %2 from the default providers (%3); name one of: %4</source>
        <translation>kein %1-Preis für GPU %2 von den Standardanbietern (%3); nennen Sie einen von: %4</translation>
    </message>
    <message>
        <source>no %1 price for GPU %2 (kinds priced for %3: %4)</source>
        <translation>kein %1-Preis für GPU %2 (Preisarten für %3: %4)</translation>
    </message>
    <message>
        <source>price kind %1 has no default provider; name one for %2: %3</source>
        <translation>Preisart %1 hat keinen Standardanbieter; nennen Sie einen für %2: %3</translation>
    </message>
    <message>
        <source>power kind measured_dcgm: %1 of %2 has no measured energy per token</source>
        <translation>Leistungsart measured_dcgm: %1 von %2 hat keine gemessene Energie pro Token</translation>
    </message>
    <message>
        <source>no %1 power for GPU %2 (not in the power table)</source>
        <translation>keine %1-Leistung für GPU %2 (nicht in der Leistungstabelle)</translation>
    </message>
    <message>
        <source>no %1 power for GPU %2</source>
        <translation>keine %1-Leistung für GPU %2</translation>
    </message>
    <message>
        <source>measured_dcgm power comes from the run's telemetry, not the table</source>
        <translation>measured_dcgm-Leistung kommt aus der Telemetrie des Laufs, nicht aus der Tabelle</translation>
    </message>
    <message>
        <source>board_tdp utilisation must be in (0, 1], got %1</source>
        <translation>board_tdp-Auslastung muss in (0, 1] liegen, erhalten %1</translation>
    </message>
    <message>
        <source>unknown power kind '%1' (all_in, all_in_2026_04, board_tdp, measured_dcgm)</source>
        <translation>unbekannte Leistungsart '%1' (all_in, all_in_2026_04, board_tdp, measured_dcgm)</translation>
    </message>
    <message>
        <source>demand rps needs the phase's OSL; %1 has none (use tps= instead)</source>
        <translation>Bedarf rps braucht die OSL der Phase; %1 hat keine (stattdessen tps= verwenden)</translation>
    </message>
    <message>
        <source>demand users needs fixed-concurrency points; %1 of %2 is not one (use tps= instead)</source>
        <translation>Bedarf users braucht Punkte fester Nebenläufigkeit; %1 von %2 ist keiner (stattdessen tps= verwenden)</translation>
    </message>
    <message>
        <source>deployment %1 has no GPU count</source>
        <translation>Deployment %1 hat keine GPU-Anzahl</translation>
    </message>
    <message>
        <source>deployment %1: %2 GPUs is not prefill + decode</source>
        <translation>Deployment %1: %2 GPUs sind nicht Prefill + Decode</translation>
    </message>
    <message>
        <source>deployment %1 has no valid measured point</source>
        <translation>Deployment %1 hat keinen gültigen gemessenen Punkt</translation>
    </message>
    <message>
        <source>nothing to plan: no deployment with measured points</source>
        <translation>nichts zu planen: kein Deployment mit gemessenen Punkten</translation>
    </message>
    <message>
        <source>headroom must be a percentage ≥ 0</source>
        <translation>die Reserve muss ein Prozentsatz ≥ 0 sein</translation>
    </message>
    <message>
        <source>tier scale factors must be &gt; 0</source>
        <translation>Stufenfaktoren müssen &gt; 0 sein</translation>
    </message>
    <message>
        <source>demand '%1': unknown field '%2' (tps=, users= or rps=)</source>
        <translation>Bedarf '%1': unbekanntes Feld '%2' (tps=, users= oder rps=)</translation>
    </message>
    <message>
        <source>demand '%1': field '%2' needs a number &gt; 0, got '%3'</source>
        <translation>Bedarf '%1': Feld '%2' braucht eine Zahl &gt; 0, erhalten '%3'</translation>
    </message>
    <message>
        <source>run %1 scenario %2: no GPU type recorded, cannot be priced</source>
        <translation>Lauf %1 Szenario %2: kein GPU-Typ erfasst, kein Preis möglich</translation>
    </message>
    <message>
        <source>tier field %1 '%2': %3</source>
        <translation>Stufenfeld %1 '%2': %3</translation>
    </message>
    <message>
        <source>empty limit (expected e.g. ttft_p90&lt;=2000)</source>
        <translation>leere Grenze (erwartet z. B. ttft_p90&lt;=2000)</translation>
    </message>
    <message>
        <source>expected one '&lt;=' or '&gt;=' (e.g. ttft_p90&lt;=2000, tps_user&gt;=20)</source>
        <translation>erwartet ein '&lt;=' oder '&gt;=' (z. B. ttft_p90&lt;=2000, tps_user&gt;=20)</translation>
    </message>
    <message>
        <source>unknown metric '%1' (ttft_pNN, tpot_pNN, e2e_pNN in ms, or tps_user)</source>
        <translation>unbekannte Metrik '%1' (ttft_pNN, tpot_pNN, e2e_pNN in ms oder tps_user)</translation>
    </message>
    <message>
        <source>tps_user is a lower bound: use tps_user&gt;=N</source>
        <translation>tps_user ist eine Untergrenze: tps_user&gt;=N verwenden</translation>
    </message>
    <message>
        <source>latency limits are upper bounds: use %1&lt;=N</source>
        <translation>Latenzgrenzen sind Obergrenzen: %1&lt;=N verwenden</translation>
    </message>
    <message>
        <source>expected a number &gt; 0 after the operator, got '%1'</source>
        <translation>erwartet eine Zahl &gt; 0 nach dem Operator, erhalten '%1'</translation>
    </message>
    <message>
        <source>a second limit on %1</source>
        <translation>eine zweite Grenze für %1</translation>
    </message>
    <message>
        <source>calibrated on %1 measured point(s) (measured ÷ simulated %2–%3, factor %4)</source>
        <translation>kalibriert an %1 gemessenen Punkt(en) (gemessen ÷ simuliert %2–%3, Faktor %4)</translation>
    </message>
    <message>
        <source>held-out calibration on %1 vs published throughput (docs/simulator.md)</source>
        <translation>zurückgehaltene Kalibrierung an %1 vs. veröffentlichter Durchsatz (docs/simulator.md)</translation>
    </message>
    <message>
        <source>calibration vs all published rows (docs/simulator.md)</source>
        <translation>Kalibrierung vs. alle veröffentlichten Zeilen (docs/simulator.md)</translation>
    </message>
</context>
<context>
    <name>Throughline::CapacityTexts</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source> (%1 prefill + %2 decode)</source>
        <translation> (%1 Prefill + %2 Decode)</translation>
    </message>
    <message>
        <source>concurrency %1</source>
        <translation>Nebenläufigkeit %1</translation>
    </message>
    <message>
        <source>point %1</source>
        <translation>Punkt %1</translation>
    </message>
    <message>
        <source> of run %1</source>
        <translation> von Lauf %1</translation>
    </message>
    <message>
        <source>, stored point %1</source>
        <translation>, gespeicherter Punkt %1</translation>
    </message>
    <message>
        <source>measured on the built-in simulator</source>
        <translation>gemessen am eingebauten Simulator</translation>
    </message>
    <message>
        <source>simulated (what-if, not measured): tok/s ×%1–×%2, %3</source>
        <translation>simuliert (Was-wäre-wenn, nicht gemessen): Tok/s ×%1–×%2, %3</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>%1 %2/GPU-hour · %3 · %4 · seen %5</source>
        <translation>%1 %2/GPU-Stunde · %3 · %4 · gesehen %5</translation>
    </message>
    <message>
        <source>measured DCGM energy per token (GPU only)</source>
        <translation>gemessene DCGM-Energie pro Token (nur GPU)</translation>
    </message>
    <message>
        <source>board TDP × %1 utilisation: %2 kW/GPU (GPU only)</source>
        <translation>Board-TDP × %1 Auslastung: %2 kW/GPU (nur GPU)</translation>
    </message>
    <message>
        <source>%1: %2 kW/GPU all-in (GPU with its share of host and network)</source>
        <translation>%1: %2 kW/GPU gesamt (GPU mit ihrem Anteil an Host und Netzwerk)</translation>
    </message>
    <message>
        <source>Demand %1 with %2 % headroom; tier %3; prices %4 (one kind per answer, never mixed); power %5. Only measured points are used; points measured on the built-in simulator say so.</source>
        <translation>Bedarf %1 mit %2 % Reserve; Stufe %3; Preise %4 (eine Art je Antwort, nie gemischt); Leistung %5. Nur gemessene Punkte werden verwendet; am eingebauten Simulator gemessene Punkte sagen es.</translation>
    </message>
    <message>
        <source>$ per 1M output tokens vs SLO tightness</source>
        <translation>$ pro 1 Mio. Ausgabe-Tokens vs. SLO-Strenge</translation>
    </message>
    <message>
        <source>tier factor f (latency bounds × f, tps_user ÷ f; below 1 is tighter)</source>
        <translation>Stufenfaktor f (Latenzgrenzen × f, tps_user ÷ f; unter 1 ist strenger)</translation>
    </message>
    <message>
        <source>$ per 1M output tokens (at the point)</source>
        <translation>$ pro 1 Mio. Ausgabe-Tokens (am Punkt)</translation>
    </message>
    <message>
        <source>the tier as asked</source>
        <translation>die Stufe wie verlangt</translation>
    </message>
</context>
<context>
    <name>Throughline::PlanPage</name>
    <message>
        <source>Tick the stored runs whose deployments to plan with</source>
        <translation>Gespeicherte Läufe ankreuzen, deren Deployments geplant werden</translation>
    </message>
    <message>
        <source>Runs from History</source>
        <translation>Läufe aus dem Verlauf</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>Deployment</translation>
    </message>
    <message>
        <source>Stored point</source>
        <translation>Gespeicherter Punkt</translation>
    </message>
    <message>
        <source>tok/s per GPU</source>
        <translation>Tok/s pro GPU</translation>
    </message>
    <message>
        <source>Users per GPU</source>
        <translation>Nutzer pro GPU</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>Replikate</translation>
    </message>
    <message>
        <source>GPUs needed</source>
        <translation>Benötigte GPUs</translation>
    </message>
    <message>
        <source>$ per 1M tokens (point)</source>
        <translation>$ pro 1 Mio. Tokens (Punkt)</translation>
    </message>
    <message>
        <source>$ per 1M tokens (demand)</source>
        <translation>$ pro 1 Mio. Tokens (Bedarf)</translation>
    </message>
    <message>
        <source>kWh per 1M tokens</source>
        <translation>kWh pro 1 Mio. Tokens</translation>
    </message>
    <message>
        <source>Tokens per GPU-hour</source>
        <translation>Tokens pro GPU-Stunde</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>Tier at the point</source>
        <translation>Stufe am Punkt</translation>
    </message>
    <message>
        <source>Binding constraint</source>
        <translation>Bindende Grenze</translation>
    </message>
    <message>
        <source>Double-click a row to open the run of its stored point in History</source>
        <translation>Doppelklick auf eine Zeile öffnet den Lauf ihres gespeicherten Punkts im Verlauf</translation>
    </message>
    <message>
        <source>Tick a run with measured points to see its cost against SLO tightness.</source>
        <translation>Kreuzen Sie einen Lauf mit gemessenen Punkten an, um seine Kosten gegen die SLO-Strenge zu sehen.</translation>
    </message>
    <message>
        <source>The shipped price table cannot be read.</source>
        <translation>Die mitgelieferte Preistabelle kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>output tok/s</source>
        <translation>Ausgabe-Tok/s</translation>
    </message>
    <message>
        <source>concurrent users</source>
        <translation>gleichzeitige Nutzer</translation>
    </message>
    <message>
        <source>requests/s (× the phase&apos;s OSL)</source>
        <translation>Anfragen/s (× OSL der Phase)</translation>
    </message>
    <message>
        <source>&amp;Demand</source>
        <translation>&amp;Bedarf</translation>
    </message>
    <message>
        <source>Comma-separated limits: ttft_pNN, tpot_pNN, e2e_pNN ≤ ms; tps_user ≥ tok/s per user (1000 / TPOT p90)</source>
        <translation>Kommagetrennte Grenzen: ttft_pNN, tpot_pNN, e2e_pNN ≤ ms; tps_user ≥ Tok/s pro Nutzer (1000 / TPOT p90)</translation>
    </message>
    <message>
        <source>SLO &amp;tier</source>
        <translation>SLO-&amp;Stufe</translation>
    </message>
    <message>
        <source>&amp;Headroom</source>
        <translation>&amp;Reserve</translation>
    </message>
    <message>
        <source>Price &amp;kind</source>
        <translation>Preis&amp;art</translation>
    </message>
    <message>
        <source>Price Table…</source>
        <translation>Preistabelle…</translation>
    </message>
    <message>
        <source>Use a price table of your own (CSV in the format of gpu_prices.csv)</source>
        <translation>Eigene Preistabelle verwenden (CSV im Format von gpu_prices.csv)</translation>
    </message>
    <message>
        <source>&amp;Provider</source>
        <translation>An&amp;bieter</translation>
    </message>
    <message>
        <source>all-in kW per GPU (SemiAnalysis, later value)</source>
        <translation>Gesamt-kW pro GPU (SemiAnalysis, späterer Wert)</translation>
    </message>
    <message>
        <source>all-in kW per GPU (2026-04 value)</source>
        <translation>Gesamt-kW pro GPU (Wert 2026-04)</translation>
    </message>
    <message>
        <source>board TDP × utilisation (GPU only)</source>
        <translation>Board-TDP × Auslastung (nur GPU)</translation>
    </message>
    <message>
        <source>measured DCGM energy (GPU only)</source>
        <translation>gemessene DCGM-Energie (nur GPU)</translation>
    </message>
    <message>
        <source>Stated utilisation of board TDP</source>
        <translation>Angenommene Auslastung der Board-TDP</translation>
    </message>
    <message>
        <source>P&amp;ower</source>
        <translation>&amp;Leistung</translation>
    </message>
    <message>
        <source>Report PDF…</source>
        <translation>Bericht als PDF…</translation>
    </message>
    <message>
        <source>The first ticked run&apos;s report with a “Capacity and cost” section for this plan</source>
        <translation>Der Bericht des ersten angekreuzten Laufs mit einem Abschnitt „Kapazität und Kosten“ für diese Planung</translation>
    </message>
    <message>
        <source>Price table</source>
        <translation>Preistabelle</translation>
    </message>
    <message>
        <source>Price tables (*.csv);;All files (*)</source>
        <translation>Preistabellen (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read the price table: %1</source>
        <translation>Die Preistabelle kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the kind&apos;s default</source>
        <translation>Standard der Art</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>The price table cannot be read.</source>
        <translation>Die Preistabelle kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Cannot read the ticked runs: %1</source>
        <translation>Die angekreuzten Läufe können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Tick one or more stored runs on the left: each scenario is a deployment to size and price.</source>
        <translation>Kreuzen Sie links einen oder mehrere gespeicherte Läufe an: Jedes Szenario ist ein Deployment, das dimensioniert und bepreist wird.</translation>
    </message>
    <message>
        <source>The ticked runs have no completed point with a throughput.</source>
        <translation>Die angekreuzten Läufe haben keinen abgeschlossenen Punkt mit Durchsatz.</translation>
    </message>
    <message>
        <source>Cannot plan: %1</source>
        <translation>Planung nicht möglich: %1</translation>
    </message>
    <message>
        <source>The power table cannot be read.</source>
        <translation>Die Leistungstabelle kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source> Price table: %1.</source>
        <translation> Preistabelle: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n deployment(s) meet the tier; the cheapest per 1M output tokens first.</source>
        <translation>
            <numerusform>%n Deployment erfüllt die Stufe; das günstigste pro 1 Mio. Ausgabe-Tokens zuerst.</numerusform>
            <numerusform>%n Deployments erfüllen die Stufe; das günstigste pro 1 Mio. Ausgabe-Tokens zuerst.</numerusform>
        </translation>
    </message>
    <message>
        <source>does not meet</source>
        <translation>erfüllt nicht</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>the tier is not met at the closest point</source>
        <translation>die Stufe ist am nächstgelegenen Punkt nicht erfüllt</translation>
    </message>
    <message>
        <source>From %1 (%2 tok/s); GPUs if replicas could be any size: %3 (not measured). Energy: %4. Double-click to open the run in History.</source>
        <translation>Aus %1 (%2 Tok/s); GPUs, wenn Replikate beliebig groß sein könnten: %3 (nicht gemessen). Energie: %4. Doppelklick öffnet den Lauf im Verlauf.</translation>
    </message>
    <message>
        <source>Report with capacity and cost</source>
        <translation>Bericht mit Kapazität und Kosten</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot write the report: %1</source>
        <translation>Der Bericht kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 geschrieben</translation>
    </message>
</context>
<context>
    <name>Throughline::MlperfCharts</name>
    <message>
        <source>Ultra Low</source>
        <translation>Ultra Low</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Low</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <source>margin</source>
        <translation>Rand</translation>
    </message>
    <message>
        <source>%1: MLPerf Endpoints frontier</source>
        <translation>%1: MLPerf-Endpoints-Front</translation>
    </message>
    <message>
        <source>tokens/s per user (1000 / TPOT p90 without TTFT)</source>
        <translation>Tokens/s pro Nutzer (1000 / TPOT p90 ohne TTFT)</translation>
    </message>
    <message>
        <source>system output tokens/s</source>
        <translation>Ausgabe-Tokens/s des Systems</translation>
    </message>
    <message>
        <source>frontier (step function of valid points)</source>
        <translation>Front (Stufenfunktion der gültigen Punkte)</translation>
    </message>
    <message>
        <source>measured points</source>
        <translation>gemessene Punkte</translation>
    </message>
    <message>
        <source>concurrency (requests in flight)</source>
        <translation>Nebenläufigkeit (laufende Anfragen)</translation>
    </message>
    <message>
        <source>TTFT p90 vs concurrency</source>
        <translation>TTFT p90 vs. Nebenläufigkeit</translation>
    </message>
    <message>
        <source>TTFT p90 (ms)</source>
        <translation>TTFT p90 (ms)</translation>
    </message>
    <message>
        <source>tokens/s per user vs concurrency</source>
        <translation>Tokens/s pro Nutzer vs. Nebenläufigkeit</translation>
    </message>
    <message>
        <source>tokens/s per user</source>
        <translation>Tokens/s pro Nutzer</translation>
    </message>
    <message>
        <source>system tokens/s vs concurrency</source>
        <translation>System-Tokens/s vs. Nebenläufigkeit</translation>
    </message>
    <message>
        <source>Area over 0–%1 tok/s per user</source>
        <translation>Fläche über 0–%1 tok/s pro Nutzer</translation>
    </message>
    <message>
        <source>Throughput at %1 tok/s per user</source>
        <translation>Durchsatz bei %1 tok/s pro Nutzer</translation>
    </message>
</context>
<context>
    <name>Throughline::MlperfCurveView</name>
    <message>
        <source>Scenario:</source>
        <translation>Szenario:</translation>
    </message>
    <message>
        <source>Rules preset %1. No valid point: no frontier.</source>
        <translation>Regel-Voreinstellung %1. Kein gültiger Punkt: keine Front.</translation>
    </message>
    <message>
        <source>%1 tok/s at %2 tok/s per user</source>
        <translation>%1 tok/s bei %2 tok/s pro Nutzer</translation>
    </message>
    <message>
        <source>Rules preset %1. Area under the frontier %2 (tok/s × tok/s per user, 0–%3 tok/s per user); %4.</source>
        <translation>Regel-Voreinstellung %1. Fläche unter der Front %2 (tok/s × tok/s pro Nutzer, 0–%3 tok/s pro Nutzer); %4.</translation>
    </message>
</context>
<context>
    <name>LoadLabel</name>
    <message>
        <source>%1 req/s</source>
        <translation>%1 Anfr./s</translation>
    </message>
    <message>
        <source>%1 · repeat %2</source>
        <translation>%1 · Wiederholung %2</translation>
    </message>
</context>
<context>
    <name>Throughline::BreakdownPlot</name>
    <message>
        <source>%1 ± %2 ms</source>
        <translation>%1 ± %2 ms</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>measured across the two clocks (± clock bound)</source>
        <translation>über beide Uhren gemessen (± Uhrenschranke)</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>derived: the remainder of the request&apos;s time</source>
        <translation>abgeleitet: der Rest der Zeit der Anfrage</translation>
    </message>
    <message>
        <source>unknown: not published by this server timing format</source>
        <translation>unbekannt: von diesem Serverzeiten-Format nicht veröffentlicht</translation>
    </message>
</context>
<context>
    <name>Throughline::StackedBreakdownPlot</name>
    <message>
        <source>%1 (derived remainder)</source>
        <translation>%1 (abgeleiteter Rest)</translation>
    </message>
    <message>
        <source>load point</source>
        <translation>Lastpunkt</translation>
    </message>
    <message>
        <source>Per load point (click a bar for its requests)</source>
        <translation>Je Lastpunkt (Balken anklicken für seine Anfragen)</translation>
    </message>
</context>
<context>
    <name>Throughline::WaterfallPlot</name>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>derived (remainder)</source>
        <translation>abgeleitet (Rest)</translation>
    </message>
    <message>
        <source>|—| ± clock bound (aligned clocks)</source>
        <translation>|—| ± Uhrenschranke (abgeglichene Uhren)</translation>
    </message>
    <message>
        <source>ms since the request was scheduled</source>
        <translation>ms seit der Einplanung der Anfrage</translation>
    </message>
    <message>
        <source>starts %1 ms after the request was scheduled</source>
        <translation>beginnt %1 ms nach der Einplanung der Anfrage</translation>
    </message>
</context>
<context>
    <name>Throughline::BreakdownView</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>mean over %n request(s); p50 %1, p90 %2, p99 %3 ms</source>
        <translation>
            <numerusform>Mittel über %n Anfrage; p50 %1, p90 %2, p99 %3 ms</numerusform>
            <numerusform>Mittel über %n Anfragen; p50 %1, p90 %2, p99 %3 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>Aufwärmen</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>, no server timing</source>
        <translation>, keine Serverzeiten</translation>
    </message>
    <message>
        <source>seq</source>
        <translation>seq</translation>
    </message>
    <message>
        <source>e2e (ms)</source>
        <translation>E2E (ms)</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>The point&apos;s requests: pick one to draw its waterfall.</source>
        <translation>Die Anfragen des Lastpunkts: eine auswählen, um ihren Wasserfall zu zeichnen.</translation>
    </message>
    <message>
        <source>mean time per measured request (ms), parts stacked</source>
        <translation>mittlere Zeit je gemessener Anfrage (ms), Teile gestapelt</translation>
    </message>
    <message>
        <source>Reading the requests of %1…</source>
        <translation>Die Anfragen von %1 werden gelesen…</translation>
    </message>
    <message>
        <source>The requests of this point cannot be read.</source>
        <translation>Die Anfragen dieses Lastpunkts können nicht gelesen werden.</translation>
    </message>
    <message>
        <source>No request of this point has a stored breakdown.</source>
        <translation>Keine Anfrage dieses Lastpunkts hat eine gespeicherte Aufschlüsselung.</translation>
    </message>
    <message>
        <source>, e2e %1 ms</source>
        <translation>, E2E %1 ms</translation>
    </message>
    <message>
        <source>Request %1 (median e2e)%2</source>
        <translation>Anfrage %1 (Median-E2E)%2</translation>
    </message>
    <message>
        <source>Request %1%2</source>
        <translation>Anfrage %1%2</translation>
    </message>
    <message>
        <source>clocks aligned to ± %1 ms</source>
        <translation>Uhren auf ± %1 ms abgeglichen</translation>
    </message>
    <message>
        <source>durations only (no clock alignment)</source>
        <translation>nur Dauern (kein Uhrenabgleich)</translation>
    </message>
    <message>
        <source>%1: server timing %2, joined by %3; %4 measured requests; %5 requests with server timing, %6 without (warm-up included); %7. Click a bar to see its point&apos;s requests.</source>
        <translation>%1: Serverzeiten %2, verknüpft über %3; %4 gemessene Anfragen; %5 Anfragen mit Serverzeiten, %6 ohne (Aufwärmen eingeschlossen); %7. Einen Balken anklicken, um die Anfragen seines Lastpunkts zu sehen.</translation>
    </message>
</context>
<context>
    <name>Throughline::BreakdownParts</name>
    <message>
        <source>client queue</source>
        <translation>Client-Warteschlange</translation>
    </message>
    <message>
        <source>connect and send</source>
        <translation>Verbinden und Senden</translation>
    </message>
    <message>
        <source>network to server</source>
        <translation>Netz zum Server</translation>
    </message>
    <message>
        <source>server front end</source>
        <translation>Server-Frontend</translation>
    </message>
    <message>
        <source>server queue</source>
        <translation>Server-Warteschlange</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>Prefill</translation>
    </message>
    <message>
        <source>KV transfer</source>
        <translation>KV-Transfer</translation>
    </message>
    <message>
        <source>network to client and read</source>
        <translation>Netz zum Client und Lesen</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>Decode</translation>
    </message>
    <message>
        <source>stream tail</source>
        <translation>Stream-Ende</translation>
    </message>
    <message>
        <source>unattributed</source>
        <translation>nicht zugeordnet</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>derived</source>
        <translation>abgeleitet</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
</context>
<context>
    <name>Throughline::BreakdownCharts</name>
    <message>
        <source>Each request, by part</source>
        <translation>Jede Anfrage, nach Teilen</translation>
    </message>
    <message>
        <source>To the first token, by part</source>
        <translation>Bis zum ersten Token, nach Teilen</translation>
    </message>
    <message>
        <source>load point</source>
        <translation>Lastpunkt</translation>
    </message>
    <message>
        <source>mean per request, ms</source>
        <translation>Mittel je Anfrage, ms</translation>
    </message>
</context>
<context>
    <name>Throughline::MlperfPanel</name>
    <message>
        <source>cannot comply: %1</source>
        <translation>kann nicht mehr konform sein: %1</translation>
    </message>
    <message>
        <source>stopped before its remaining points</source>
        <translation>vor seinen übrigen Punkten angehalten</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) measured of %1</source>
        <translation>
            <numerusform>%n Punkt von %1 gemessen</numerusform>
            <numerusform>%n Punkte von %1 gemessen</numerusform>
        </translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Einzelheiten</translation>
    </message>
    <message>
        <source>The MLPerf Endpoints rules the client can check, after each finished point: pending rules still depend on points to come; blocked ones the client cannot decide (they never count as a pass).</source>
        <translation>Die MLPerf-Endpoints-Regeln, die der Client prüfen kann, nach jedem fertigen Punkt: offene Regeln hängen noch von kommenden Punkten ab; blockierte kann der Client nicht entscheiden (sie zählen nie als bestanden).</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>not applicable</source>
        <translation>nicht anwendbar</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>blockiert</translation>
    </message>
    <message>
        <source>MLPerf Endpoints (%1): %2</source>
        <translation>MLPerf Endpoints (%1): %2</translation>
    </message>
    <message>
        <source>fail (estimate only)</source>
        <translation>nicht bestanden (nur Schätzung)</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>Prüfungen</translation>
    </message>
    <message>
        <source>Curve</source>
        <translation>Kurve</translation>
    </message>
</context>
<context>
    <name>Throughline::MlperfRunControls</name>
    <message>
        <source>MLPerf Endpoints rules</source>
        <translation>MLPerf-Endpoints-Regeln</translation>
    </message>
    <message>
        <source>Run the campaign as an MLPerf Endpoints curve: the rules&apos; points, their checks after every point, a scenario that can no longer comply stopped before its next point (as throughline-cli run --mlperf).</source>
        <translation>Die Kampagne als MLPerf-Endpoints-Kurve ausführen: die Punkte der Regeln, ihre Prüfungen nach jedem Punkt, ein Szenario, das nicht mehr konform sein kann, vor seinem nächsten Punkt angehalten (wie throughline-cli run --mlperf).</translation>
    </message>
    <message>
        <source>The versioned rules preset: point planning, durations, percentiles.</source>
        <translation>Die versionierte Regelvorlage: Punktplanung, Dauern, Perzentile.</translation>
    </message>
    <message>
        <source>MLPerf Endpoints: %1</source>
        <translation>MLPerf Endpoints: %1</translation>
    </message>
    <message>
        <source>Not run: the MLPerf plan cannot comply. %1</source>
        <translation>Nicht ausgeführt: der MLPerf-Plan kann nicht konform sein. %1</translation>
    </message>
    <message>
        <source>the plan cannot comply; nothing was run</source>
        <translation>der Plan kann nicht konform sein; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>planned; the rules are checked after every point</source>
        <translation>geplant; die Regeln werden nach jedem Punkt geprüft</translation>
    </message>
    <message>
        <source>checked after the last finished point</source>
        <translation>nach dem letzten fertigen Punkt geprüft</translation>
    </message>
    <message>
        <source>not compliant</source>
        <translation>nicht konform</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>no dataset</source>
        <translation>kein Datensatz</translation>
    </message>
    <message>
        <source> samples</source>
        <translation> Samples</translation>
    </message>
    <message>
        <source>Samples per dataset pass (e.g. 6,396 for mlperf_gpt_oss_performance). With one, every point issues whole passes (at least four super-passes), its steady state is judged and the prompts are samples drawn with replacement; without one those rules stay blocked and the C_max point is the Offline result.</source>
        <translation>Samples je Durchlauf des Datensatzes (z. B. 6.396 für mlperf_gpt_oss_performance). Mit einer Angabe sendet jeder Punkt ganze Durchläufe (mindestens vier Super-Passes), sein eingeschwungener Zustand wird beurteilt und die Prompts sind mit Zurücklegen gezogene Samples; ohne sie bleiben diese Regeln blockiert und der C_max-Punkt ist das Offline-Ergebnis.</translation>
    </message>
</context>
</TS>
