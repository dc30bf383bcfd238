package io.rdmatrace.verbs;

/** One GID table entry with its type (struct ibv_gid_entry). */
public record GidEntry(Gid gid, int gidIndex, int portNum, GidType gidType, int ndevIfindex) {
}
