package io.rdmatrace.verbs;

/** A block of int64 slots that {@link Codec} reads a struct from: a JNI call buffer or a recorded one. */
interface SlotSource {
    long get(int slot);

    default int getInt(int slot) {
        return (int) get(slot);
    }

    /** 16 raw bytes starting at a slot (GIDs), in a new array the caller may keep. */
    byte[] getBytes16(int slot);
}
