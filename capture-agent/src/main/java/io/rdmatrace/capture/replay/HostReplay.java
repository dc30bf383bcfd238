package io.rdmatrace.capture.replay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobSettings;
import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.capture.replay.Divergence.Kind;
import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.names.VerbsNames;
import io.rdmatrace.verbs.IbvAsyncEvent;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsException;

/**
 * Replays one recorded host, in recorded order: every call again (mapped), the out-of-band
 * messages again (with fresh values), polls until the recorded completions are back; records the
 * whole replay as a new trace and reports every divergence from the recording.
 */
final class HostReplay {
    /** Calls the recorder may hear before the SESSION exists (the SESSION is built from their answers). */
    private static final Set<Verb> BEFORE_SESSION = EnumSet.of(Verb.IBV_GET_DEVICE_LIST, Verb.IBV_OPEN_DEVICE,
            Verb.IBV_QUERY_DEVICE, Verb.IBV_QUERY_PORT, Verb.IBV_QUERY_GID, Verb.IBV_QUERY_GID_EX, Verb.IBV_QUERY_PKEY);
    private static final Set<Verb> DATA_PATH = EnumSet.of(Verb.IBV_POST_SEND, Verb.IBV_POST_RECV, Verb.IBV_POLL_CQ);
    private static final Duration LAST_ASYNC_WAIT = Duration.ofMillis(200);

    private final HostReplayConfig config;
    private final SessionEvent recordedSession;
    private final String host;

    HostReplay(HostReplayConfig config) {
        this.config = config;
        this.recordedSession = config.recording().session();
        this.host = recordedSession.hostId();
    }

    HostReplayReport run() {
        DivergenceLog log = new DivergenceLog(host);
        Recorder recorder = new Recorder();
        ReplayListener listener = new ReplayListener(recorder);
        Progress p = new Progress();
        String failure = null;
        List<String> notes = List.of();
        try (Verbs verbs = Verbs.open(config.library())) {
            if (config.softverbsSpec() != null) {
                verbs.configureSoftverbs(config.softverbsSpec());
            }
            ReplayState state = new ReplayState(verbs, listener, config.completionWait());
            OobReplay oob = config.link() == null ? null
                    : new OobReplay(config.link(), oobSettings(), recorder, state.values);
            try {
                failure = replayAll(state, oob, recorder, log, p);
                compareAsync(state, listener, log, p);
            } finally {
                if (oob != null) {
                    oob.close();
                }
                notes = state.notes();
                p.device = state.context != null ? state.context.device().name() : "";
                state.close();
                recorder.close();
            }
        } catch (VerbsException | IllegalArgumentException | UnsupportedOperationException e) {
            failure = "cannot use " + config.library().describe() + ": " + e.getMessage();
        }
        if (failure == null && recorder.failure() != null) {
            failure = "the new trace is incomplete: " + recorder.failure();
        }
        Path folder = recorder.folder();
        return new HostReplayReport(host, folder == null ? null : folder.toString(), p.device, p.calls,
                p.completions, notes, log.all(), failure);
    }

    /** Counters for the report. */
    private static final class Progress {
        int calls;
        int completions;
        String step = "";
        String device = "";
        final List<AsyncEvent> recordedAsync = new ArrayList<>();
    }

    /** Replays every event; returns why it stopped early, or null. */
    private String replayAll(ReplayState state, OobReplay oob, Recorder recorder, DivergenceLog log, Progress p) {
        ControlCalls control = new ControlCalls(state);
        DataCalls data = new DataCalls(state);
        OutcomeCheck check = new OutcomeCheck(state, log, config.onReference());
        List<TraceEvent> events = config.recording().events();
        boolean oobNoted = false;
        if (!config.recording().outcome().isClean()) {
            state.note("the recording ends early (" + config.recording().outcome().status() + "): replayed up to its last "
                    + "readable event; " + config.recording().outcome().detail());
        }
        boolean dataPath = !peerMissing();
        if (!dataPath) {
            state.note("data path not replayed (posts, polls, completions): the recorded peer is not part of the trace");
        }
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            try {
                if (e instanceof CallEvent c) {
                    if (!recorder.started() && !BEFORE_SESSION.contains(c.verb())) {
                        startRecording(state, recorder);
                    }
                    if (!dataPath && DATA_PATH.contains(c.verb())) {
                        while (i + 1 < events.size() && events.get(i + 1) instanceof CompletionEvent) {
                            i++;
                        }
                        continue;
                    }
                    if (c.verb() == Verb.IBV_POLL_CQ) {
                        i = poll(c, events, i, data, check, p);
                    } else {
                        Replayed r = switch (c.verb()) {
                            case IBV_POST_SEND -> data.postSend(c);
                            case IBV_POST_RECV -> data.postRecv(c);
                            default -> control.replay(c);
                        };
                        outcome(c, r, check, state, log, p);
                    }
                    remember(c, state);
                    drainAsync(state, Duration.ZERO);
                } else if (e instanceof OobEvent o) {
                    if (oob == null) {
                        if (!oobNoted) {
                            state.note("out-of-band messages not replayed: the trace holds no peer to exchange with");
                            oobNoted = true;
                        }
                        continue;
                    }
                    if (!recorder.started()) {
                        startRecording(state, recorder);
                    }
                    oob.replay(o);
                } else if (e instanceof MarkEvent m) {
                    p.step = m.step();
                    if (m.verdict() == MarkEvent.Verdict.INFO) {
                        recorder.mark(m.step(), MarkEvent.Verdict.INFO, m.text());
                    }
                } else if (e instanceof CountersEvent c) {
                    if (state.context != null && state.verbs.isSoftverbs()) {
                        recorder.counters(state.context.device().name(), c.phase(), state.context.queryCounters(1));
                    }
                } else if (e instanceof AsyncEvent a) {
                    p.recordedAsync.add(a);
                }
            } catch (OobException x) {
                return "out-of-band exchange at recorded event #" + e.seq() + ": " + x.getMessage();
            } catch (TraceException x) {
                return "cannot record the replay: " + x.getMessage();
            } catch (RuntimeException x) {
                return "replaying recorded event #" + e.seq() + " (" + e.kind() + "): " + x;
            }
        }
        check.extraCompletions(data.unmatched(), lastSeq());
        if (!recorder.started()) {
            try {
                startRecording(state, recorder);
            } catch (TraceException x) {
                return "cannot record the replay: " + x.getMessage();
            }
        }
        return null;
    }

    /** A recorded poll with its completions (the CompletionEvents right after it); returns the last index used. */
    private int poll(CallEvent c, List<TraceEvent> events, int at, DataCalls data, OutcomeCheck check, Progress p) {
        List<CompletionEvent> recorded = new ArrayList<>();
        int j = at + 1;
        while (j < events.size() && events.get(j) instanceof CompletionEvent ce) {
            recorded.add(ce);
            j++;
        }
        if (recorded.isEmpty()) {
            return at; // an empty poll (or a summary of empty polls) changes nothing
        }
        List<DataCalls.Match> matches = data.poll(c, recorded);
        p.calls++;
        p.completions += recorded.size();
        if (matches != null) {
            check.completions(matches, p.step);
        }
        return j - 1;
    }

    private void outcome(CallEvent c, Replayed r, OutcomeCheck check, ReplayState state, DivergenceLog log, Progress p) {
        if (r instanceof Replayed.Done done) {
            p.calls++;
            check.call(c, done, p.step);
        } else if (r instanceof Replayed.Skipped skipped) {
            if (skipped.objectMissing() && OutcomeCheck.ok(c.verb(), c.ret())) {
                log.report(c.handle(), c.seq(), p.step, c.verb().function(), Kind.NOT_REPLAYED, "", "ok", "not made",
                        c.verb().function() + " could not be made: " + skipped.why(), false);
            } else if (!skipped.objectMissing()) {
                state.note(skipped.why());
            }
        }
    }

    /** Keeps what the recording said about QPs, to name transitions and find a completion's QP. */
    private static void remember(CallEvent c, ReplayState state) {
        if (!OutcomeCheck.ok(c.verb(), c.ret())) {
            return;
        }
        if (c.verb() == Verb.IBV_CREATE_QP && c.handle() != 0) {
            state.recordedQpState.put(c.handle(), 0L);
            if (c.out().has(Attr.QP_NUM)) {
                state.recordedQpHandle.put(c.out().get(Attr.QP_NUM, 0), c.handle());
            }
        } else if (c.verb() == Verb.IBV_MODIFY_QP && c.in().has(Attr.QP_STATE)) {
            state.recordedQpState.put(c.handle(), c.in().get(Attr.QP_STATE, 0));
        } else if (c.verb() == Verb.IBV_QUERY_QP && c.out().has(Attr.QP_STATE)) {
            state.recordedQpState.put(c.handle(), c.out().get(Attr.QP_STATE, 0));
        }
    }

    /** Takes every pending async event (the listener keeps them and the recorder writes them). */
    private static void drainAsync(ReplayState state, Duration wait) {
        if (state.context == null) {
            return;
        }
        for (int n = 0; n < 64; n++) {
            Outcome<Optional<IbvAsyncEvent>> o;
            try {
                o = state.context.tryGetAsyncEvent(wait);
            } catch (RuntimeException closed) {
                return; // the recording closed the device already
            }
            if (!(o instanceof Outcome.Ok<Optional<IbvAsyncEvent>> ok) || ok.value().isEmpty()) {
                return;
            }
        }
    }

    /**
     * True when the recording talked to a peer that is not replayed with it: without the other end,
     * sends go nowhere and receives never fill, so the data path and its async events are left out.
     */
    private boolean peerMissing() {
        return config.link() == null && config.recording().events().stream().anyMatch(e -> e instanceof OobEvent);
    }

    /** The recorded async events against those seen now, by type and (mapped) QP, in any order. */
    private void compareAsync(ReplayState state, ReplayListener listener, DivergenceLog log, Progress p) {
        if (peerMissing()) {
            return;
        }
        drainAsync(state, LAST_ASYNC_WAIT);
        List<String> seen = new ArrayList<>();
        for (IbvAsyncEvent a : listener.asyncEvents()) {
            seen.add(a.eventType().value() + "/" + (a.qpNum() < 0 ? -1 : a.qpNum()));
        }
        for (AsyncEvent a : p.recordedAsync) {
            long qp = a.qpNum() < 0 ? -1 : state.values.localQpn(a.qpNum());
            if (!seen.remove(a.eventType() + "/" + qp)) {
                long handle = state.recordedQpHandle.getOrDefault((long) a.qpNum(), 0L);
                log.report(handle, a.seq(), "", "async event", Kind.ASYNC_EVENT, "event_type", a.eventTypeName(), "none",
                        "async event " + a.eventTypeName() + " was raised in the recording, not in the replay", true);
            }
        }
        for (String extra : seen) {
            int type = Integer.parseInt(extra.substring(0, extra.indexOf('/')));
            log.report(0, lastSeq(), "", "async event", Kind.ASYNC_EVENT, "event_type", "none",
                    VerbsNames.EVENT_TYPE.render(type), "async event " + VerbsNames.EVENT_TYPE.render(type)
                            + " was raised in the replay only", false);
        }
    }

    private long lastSeq() {
        List<TraceEvent> events = config.recording().events();
        return events.isEmpty() ? 0 : events.get(events.size() - 1).seq();
    }

    private void startRecording(ReplayState state, Recorder recorder) throws TraceException {
        Map<String, String> overrides = new LinkedHashMap<>(recordedSession.overrides());
        overrides.put("replay-of", recordedSession.hostId());
        SessionInfo info = new SessionInfo(config.toolVersion(), host, config.commandLine(), state.verbs.loadedPath(),
                "replay of " + recordedSession.hostId() + " (" + recordedSession.scenario() + ")", overrides,
                state.deviceAttrs, state.ports, state.gids);
        recorder.start(config.outDir(), info);
    }

    private OobSettings oobSettings() {
        int qps = (int) Math.max(1, config.recording().events().stream()
                .filter(e -> e instanceof OobEvent o && o.direction() == OobEvent.Direction.SENT
                        && o.oobKind() == OobEvent.Kind.PARAMS).count());
        return new OobSettings(host, qps, Optional.empty(), config.messageWait(), config.messageWait());
    }
}
