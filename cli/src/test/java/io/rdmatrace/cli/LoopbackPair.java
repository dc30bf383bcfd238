package io.rdmatrace.cli;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Two softverbs device addresses 127.N.M.1 and 127.N.M.2 chosen at random per use: a device owns
 * UDP 4791 on its address, so tests running at the same time (other modules, other checkouts)
 * must not share 127.0.0.1/.2.
 */
record LoopbackPair(String a, String b) {
    static LoopbackPair random() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + r.nextInt(64, 250) + "." + r.nextInt(1, 250) + ".";
        return new LoopbackPair(net + "1", net + "2");
    }
}
