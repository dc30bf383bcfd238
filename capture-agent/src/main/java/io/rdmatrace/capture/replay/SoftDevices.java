package io.rdmatrace.capture.replay;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;

/**
 * The reference softverbs devices a replay runs on: one per recorded host, named as the recorded
 * device, with the recorded port's MTU and no personality quirks, each on its own loopback
 * address. The addresses are drawn at random in 127.0.0.0/8 for every replay, so a replay never
 * collides with a capture or another replay holding 127.0.0.1:4791 on the same machine.
 */
final class SoftDevices {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,63}");
    /**
     * Link MTU per recorded active MTU (enum ibv_mtu 1..5): a common Ethernet size whose IB MTU
     * (softverbs: the largest ≤ link − 80 bytes of RoCE headers) is that active MTU.
     */
    private static final int[] LINK_MTU = {0, 576, 1000, 1500, 2500, 9000};

    private final int b1 = ThreadLocalRandom.current().nextInt(100, 200);
    private final int b2 = ThreadLocalRandom.current().nextInt(1, 255);

    /** The SOFTVERBS_DEVICES spec for recorded host number {@code index}. */
    String spec(TraceReader.Result recording, int index) {
        return deviceName(recording) + "@127." + b1 + "." + b2 + "." + (index + 1) + mtu(recording);
    }

    private static String deviceName(TraceReader.Result recording) {
        for (TraceEvent e : recording.events()) {
            if (e instanceof CallEvent c && c.verb() == Verb.IBV_OPEN_DEVICE) {
                String name = c.in().text(Attr.DEV_NAME);
                if (name != null && NAME.matcher(name).matches()) {
                    return name;
                }
            }
        }
        String name = recording.session().device().text(Attr.DEV_NAME);
        return name != null && NAME.matcher(name).matches() ? name : "soft0";
    }

    /** ":mtu=N" giving the recorded port's active MTU, or "" when the recording does not say. */
    private static String mtu(TraceReader.Result recording) {
        for (Attrs port : recording.session().ports()) {
            long active = port.get(Attr.ACTIVE_MTU, 0);
            if (active >= 1 && active < LINK_MTU.length) {
                return ":mtu=" + LINK_MTU[(int) active];
            }
        }
        return "";
    }
}
