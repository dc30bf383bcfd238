package io.rdmatrace.capture.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class AsyncEventPumpTest {
    /** close() wakes the wait: with a 10-minute wait the thread is gone once close() returns (it joins 2 s at most). */
    @Test
    void close_endsTheWaitAtOnce() throws Exception {
        String ip = "127." + ThreadLocalRandom.current().nextInt(100, 200) + "." + ThreadLocalRandom.current().nextInt(1, 255)
                + "." + ThreadLocalRandom.current().nextInt(1, 255);
        try (Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs())) {
            verbs.configureSoftverbs("pump0@" + ip);
            try (DeviceList list = verbs.getDeviceList(); Context ctx = list.devices().get(0).open()) {
                AsyncEventPump pump = new AsyncEventPump(ctx, Duration.ofMinutes(10));
                pump.start();
                Thread.sleep(50);   // the thread is inside its wait
                pump.close();
                assertThat(pump.running()).as("the pump thread outlived close()").isFalse();
                assertThat(pump.failure()).isNull();
            } finally {
                verbs.configureSoftverbs(null);
            }
        }
    }
}
