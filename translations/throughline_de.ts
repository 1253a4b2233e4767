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
</context>
<context>
    <name>Throughline::CheckableListModel</name>
    <message>
        <source>%1 (custom)</source>
        <translation>%1 (benutzerdefiniert)</translation>
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
        <source>One point per finished load point: x = output_tps_per_gpu (output tokens/s over all GPUs), y = interactivity = 1000 / TPOT p90. Hollow points are live estimates.</source>
        <translation>Ein Punkt je abgeschlossenem Lastpunkt: x = output_tps_per_gpu (Ausgabe-Tokens/s über alle GPUs), y = Interaktivität = 1000 / TPOT p90. Hohle Punkte sind Live-Schätzungen.</translation>
    </message>
    <message>
        <source>%1 (live estimate)</source>
        <translation>%1 (Live-Schätzung)</translation>
    </message>
    <message>
        <source>scenario %1</source>
        <translation>Szenario %1</translation>
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
        <source>&lt;b&gt;%1&lt;/b&gt; — run %2, started %3, %4, source %5%6&lt;br&gt;provenance: %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — Lauf %2, gestartet %3, %4, Quelle %5%6&lt;br&gt;Herkunft: %7</translation>
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
        <source>History</source>
        <translation>Verlauf</translation>
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
        <source>Target tables and baselines arrive with the next GUI issue.</source>
        <translation>Zieltabellen und Referenzen folgen mit dem nächsten GUI-Issue.</translation>
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
        <source>⚠ Client-bound: the load generator itself limited the measurement in %1 (CPU, send lateness or achieved load below target). Use more workers or a bigger client.</source>
        <translation>⚠ Client-begrenzt: Der Lastgenerator selbst hat die Messung in %1 begrenzt (CPU, verspätetes Senden oder erreichte Last unter dem Zielwert). Mehr Worker oder einen größeren Client verwenden.</translation>
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
        <source>▶ running</source>
        <translation>▶ läuft</translation>
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
        <source>Pass/fail matrix for run:</source>
        <translation>Bestanden/nicht bestanden-Matrix für Lauf:</translation>
    </message>
    <message>
        <source>run id (prefix ≥ 8 hex digits)</source>
        <translation>Lauf-ID (Präfix ≥ 8 Hex-Ziffern)</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Bewerten</translation>
    </message>
    <message>
        <source>Judge run</source>
        <translation>Lauf bewerten</translation>
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
</TS>
