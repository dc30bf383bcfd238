package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.oob.OobEndpoint;
import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.oob.OobServer;
import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.verbs.CmLibrary;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.Device;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsException;
import io.rdmatrace.verbs.VerbsLibrary;
import io.rdmatrace.verbs.VerbsListener;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One `rdmatrace capture` run: load libibverbs, open the device with the recorder listening, write the
 * SESSION, snapshot the counters, run the scenario, exchange verdicts with the peer, tear down, snapshot
 * the counters again and close the trace. Every wait inside is bounded by the config's timeouts.
 */
public final class CaptureAgent {
    private final CaptureConfig config;
    private final VerbsLibrary library;
    private final String toolVersion;
    private final Consumer<String> progress;
    private final boolean record;
    private final boolean wire;
    /** --cm's librdmacm; null: softverbs' with softverbs, else the system's. */
    private final CmLibrary cmLibrary;

    /**
     * @param progress receives one-line progress messages ("listening on 127.0.0.1:7471"); tests read
     *                 the port from it
     */
    public CaptureAgent(CaptureConfig config, VerbsLibrary library, String toolVersion, Consumer<String> progress) {
        this(config, library, toolVersion, progress, true, false, null);
    }

    private CaptureAgent(CaptureConfig config, VerbsLibrary library, String toolVersion, Consumer<String> progress,
                         boolean record, boolean wire, CmLibrary cmLibrary) {
        this.config = config;
        this.library = library;
        this.toolVersion = toolVersion;
        this.progress = progress;
        this.record = record;
        this.wire = wire;
        this.cmLibrary = cmLibrary;
    }

    /** The same capture without a trace and without the verbs listener: the baseline of what recording costs. */
    public CaptureAgent withoutRecording() {
        return new CaptureAgent(config, library, toolVersion, progress, false, false, cmLibrary);
    }

    /** The same capture with softverbs' packets in the trace as PACKET events (softverbs only). */
    public CaptureAgent withWire() {
        return new CaptureAgent(config, library, toolVersion, progress, record, true, cmLibrary);
    }

    /** The same capture with --cm's librdmacm chosen explicitly (--cm-lib). */
    public CaptureAgent withCmLibrary(CmLibrary cm) {
        return new CaptureAgent(config, library, toolVersion, progress, record, wire, cm);
    }

    /** The scenario this config runs, as data (for --print-scenario). */
    public static io.rdmatrace.capture.scenario.ScenarioSpec scenarioOf(CaptureConfig config) throws IOException {
        return Scenarios.of(config).spec(config);
    }

    public CaptureReport run() throws CaptureException {
        Scenario scenario;
        try {
            // checked before the device opens or the port listens: a scenario that cannot run is a usage error
            ScenarioCheck.check(Scenarios.of(config).spec(config));
            scenario = Scenarios.of(config).create(config);
        } catch (IOException | RuntimeException e) {
            throw new CaptureException(true, config.scenarioFile() != null
                    ? "cannot use scenario " + config.scenarioFile() + ": " + e.getMessage() : e.getMessage(), e);
        }
        Recorder recorder = record ? new Recorder() : Recorder.discarding();
        try {
            // the folder is refused here, at once, when it cannot take this trace; its queue then opens
            // in the background while libibverbs loads and the device opens (Chronicle's open: 15-45 ms warm)
            recorder.prepare(config.outDir(), config.hostId());
        } catch (TraceException e) {
            throw new CaptureException(true, e.getMessage(), e);
        }
        try (recorder; Verbs verbs = open(library); WireDir wireDir = wire ? WireDir.start(verbs) : null) {
            Context ctx = openDevice(verbs, recorder);
            try {
                return capture(ctx, verbs, recorder, scenario, wireDir);
            } finally {
                if (ctx.handle() != 0) {
                    ctx.tryClose(); // on an early failure; recorded if the trace is still open
                }
                recorder.close();
            }
        } // an early failure closes the recorder last: its unused queue and folder are removed
    }

    private CaptureReport capture(Context ctx, Verbs verbs, Recorder recorder, Scenario scenario, WireDir wireDir)
            throws CaptureException {
        DeviceSnapshot snap;
        try {
            snap = new DeviceSnapshot(ctx, config.ibPort());
        } catch (VerbsException e) {
            throw new CaptureException(true, "cannot query device " + ctx.device().name() + " port " + config.ibPort()
                    + ": " + e.getMessage(), e);
        }
        int gidIndex = config.knobs().gidIndex() != null ? config.knobs().gidIndex() : snap.defaultGidIndex();
        OobServer server = null;
        if (config.link().role() == OobRole.LISTEN) {
            try {
                server = OobServer.bind(OobEndpoint.parseListen(config.link().endpoint()));
            } catch (OobException | IllegalArgumentException e) {
                throw new CaptureException(true, e.getMessage(), e);
            }
            progress.accept("listening on " + server.address());
        }
        try (OobServer bound = server) {
            SessionInfo session = new SessionInfo(toolVersion, config.hostId(), config.commandLine(), verbs.loadedPath(),
                    Scenarios.of(config) == Scenarios.FILE ? String.valueOf(config.scenarioFile()) : scenario.name(),
                    sessionOverrides(gidIndex), snap.device, List.of(snap.portAttrs), snap.gids);
            try {
                recorder.start(config.outDir(), session);
            } catch (TraceException e) {
                throw new CaptureException(true, e.getMessage(), e);
            }
            if (record) {
                progress.accept("recording to " + recorder.folder());
            }
            String devName = ctx.device().name();
            recorder.counters(devName, CountersEvent.Phase.START, ctx.queryCounters(config.ibPort()));
            AgentState state = new AgentState(config, ctx, snap.port, gidIndex, snap.gid(gidIndex), recorder, bound);
            if (config.cm() != null) {
                openCm(state, verbs, bound);
            }
            Thread onSignal = new Thread(() -> stoppedBySignal(state), "rdmatrace-capture-signal");
            boolean hooked = addHook(onSignal);
            try (state) {
                AsyncEventPump pump = new AsyncEventPump(ctx);
                pump.start();
                Ran ran;
                try {
                    ran = runScenario(scenario, state);
                } finally {
                    pump.close(); // stop waiting for async events before the device closes
                }
                recorder.counters(devName, CountersEvent.Phase.END, ctx.queryCounters(config.ibPort()));
                ctx.tryClose();
                if (wireDir != null) {
                    wireDir.drainInto(recorder); // the device is closed: its packet log is complete
                }
                recorder.close();
                long events = record ? recorder.eventsWritten() : 0;
                String problem = recorder.failureText() != null ? recorder.failureText()
                        : pump.failure() != null ? pump.failure().toString() : null;
                return new CaptureReport(ran.results(), ran.peerHost(), ran.peer() == null ? null : ran.peer().passed(),
                        ran.peer() == null ? peerMissing(state) : ran.peer().text(), recorder.folder(), events,
                        problem, recorder.failure() != null);
            } finally {
                if (hooked) {
                    removeHook(onSignal);
                }
            }
        }
    }

    /**
     * SIGINT (Ctrl-C) or SIGTERM during the capture: the JVM runs this before it exits. The trace
     * gets a FAIL mark and its END, and the peer is told, so neither side waits out its timeouts.
     */
    private static void stoppedBySignal(AgentState state) {
        String why = "stopped by a signal (Ctrl-C/SIGINT or SIGTERM) before the capture finished";
        state.recorder.interrupted(why);
        var channel = state.channel;
        if (channel != null && !state.weGaveUp && !state.linkDead) {
            channel.sendError(state.config.hostId() + " was " + why);
        }
    }

    private static boolean addHook(Thread hook) {
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            return true;
        } catch (IllegalStateException e) {
            return false; // already shutting down
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs (or ran) and finds the recorder closed
        }
    }

    /** What the scenario and the verdict exchange produced. */
    private record Ran(List<TestCaseResult> results, OobMessage.Done peer, String peerHost) {
    }

    /** Runs the test cases, exchanges verdicts, and always tears down (the destroys are recorded too). */
    private static Ran runScenario(Scenario scenario, AgentState state) {
        List<TestCaseResult> results;
        OobMessage.Done peer;
        try {
            ScenarioError error;
            try {
                error = scenario.start(state);
            } catch (InternalError e) {
                state.recorder.writeFailed(e); // a trace write faulted (full disk) and surfaced between steps
                error = new ScenarioError(String.valueOf(state.recorder.failureText()));
                new PeerExchange(state).abort(state.recorder.failureText());
            }
            results = scenario.results();
            peer = new PeerExchange(state).finish(error.isOk(), summary(results));
        } finally {
            try {
                scenario.stop();
            } catch (InternalError e) {
                state.recorder.writeFailed(e);
            }
        }
        String peerHost = state.channel != null ? state.channel.peerHello().hostId() : null;
        if (state.channel != null) {
            state.channel.close();
        }
        return new Ran(results, peer, peerHost);
    }

    /**
     * --cm: loads the librdmacm (after libibverbs, whose devices it serves) and, on the listening side,
     * listens on the --listen address and port (a wildcard address: this device's IPv4 address) before
     * the TCP link accepts the peer, so the peer's REQ always finds the listener.
     */
    private void openCm(AgentState state, Verbs verbs, OobServer bound) throws CaptureException {
        CmLibrary lib = cmLibrary != null ? cmLibrary : CmLibrary.select(verbs.isSoftverbs(), null);
        try {
            state.cm = CmLink.open(lib, state.recorder);
        } catch (VerbsException | IllegalStateException | UnsupportedOperationException e) {
            throw new CaptureException(true, "--cm: " + e.getMessage(), e);
        }
        progress.accept("rdma_cm via " + state.cm.cm.loadedPath());
        if (bound == null) {
            return;
        }
        String host = bound.address().substring(0, bound.address().lastIndexOf(':'));
        String ip = host.equals("*") ? state.localGid.ipv4().orElse("0.0.0.0") : host;
        String why;
        try {
            why = state.cm.listen(ip, bound.port(), config.workload().qps());
        } catch (IllegalArgumentException e) {
            why = e.getMessage() + " (rdma_cm listens on IPv4 addresses)";
        }
        if (why != null) {
            throw new CaptureException(true, "--cm: " + why, null);
        }
    }

    private static String peerMissing(AgentState state) {
        if (state.channel == null) {
            return state.linkDead ? "no usable connection (see the failed step)" : "never connected";
        }
        return state.weGaveUp ? "no verdict (this host gave up first)" : "did not report a verdict";
    }

    /** The SESSION's overrides: the role first, then every option given explicitly, then derived choices. */
    private Map<String, String> sessionOverrides(int gidIndex) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("role", config.link().role().label());
        m.put(config.link().role() == OobRole.LISTEN ? "--listen" : "--connect", config.link().endpoint());
        m.putAll(config.overrides());
        m.putIfAbsent("gid_index(auto)", Integer.toString(gidIndex));
        return m;
    }

    private static String summary(List<TestCaseResult> results) {
        StringBuilder sb = new StringBuilder();
        for (TestCaseResult r : results) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(r.id()).append(' ').append(r.verdict());
        }
        return sb.toString();
    }

    private static Verbs open(VerbsLibrary library) throws CaptureException {
        try {
            return Verbs.open(library);
        } catch (VerbsException e) {
            throw new CaptureException(true, e.getMessage(), e);
        }
    }

    private Context openDevice(Verbs verbs, Recorder recorder) throws CaptureException {
        VerbsListener listener = record ? recorder : null;
        Outcome<DeviceList> listed = verbs.tryGetDeviceList(listener);
        if (!(listed instanceof Outcome.Ok<DeviceList> ok) || ok.value().devices().isEmpty()) {
            if (listed instanceof Outcome.Ok<DeviceList> empty) {
                empty.value().close();
            }
            throw new CaptureException(true, "no RDMA device via " + library.describe()
                    + (listed.ok() ? "" : " (ibv_get_device_list: " + listed.status().describe() + ")")
                    + "; use --soft for the bundled software device", null);
        }
        try (DeviceList list = ok.value()) {
            Device device;
            try {
                device = config.device() != null ? list.byName(config.device()) : list.devices().get(0);
            } catch (IllegalArgumentException e) {
                throw new CaptureException(true, e.getMessage(), e);
            }
            Outcome<Context> opened = device.tryOpen(listener);
            if (!(opened instanceof Outcome.Ok<Context> ctx)) {
                throw new CaptureException(true, "ibv_open_device(" + device.name() + ") failed: " + opened.status().describe(), null);
            }
            return ctx.value();
        }
    }
}
