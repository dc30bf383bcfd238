/**
 * The Java verbs API: libibverbs driven exactly as a C program would, through a JNI library
 * that loads libibverbs with {@code dlopen} (never linked) and calls every exported verb
 * through one function table.
 *
 * <h2>Choosing the library</h2>
 * {@link io.rdmatrace.verbs.VerbsLibrary#select} implements the CLI's precedence: the bundled
 * softverbs ({@code --soft}), an explicit path ({@code --verbs-lib}), the
 * {@code RDMATRACE_VERBS_LIB} environment variable, then the system's {@code libibverbs.so.1}.
 * When the library cannot be loaded, returns no device list (ENOSYS on a kernel without RDMA)
 * or lists no device, {@link io.rdmatrace.verbs.VerbsUnavailableException} carries one sentence
 * saying so and how to use the bundled software device.
 *
 * <h2>Every call's status</h2>
 * Each verb's return value, errno (number and name) and duration (measured in C around the
 * libibverbs call alone) come back as a {@link io.rdmatrace.verbs.CallStatus}. Verbs come in two
 * forms: {@code x(...)} throws {@link io.rdmatrace.verbs.VerbsCallException} (which keeps the
 * status), {@code tryX(...)} returns the failure as a value (an
 * {@link io.rdmatrace.verbs.Outcome} or a {@code CallStatus}), so an expected failure such as an
 * illegal QP transition is just data. Objects keep the status of the call that created them
 * ({@code creationStatus()}).
 *
 * <h2>Observing calls</h2>
 * A {@link io.rdmatrace.verbs.VerbsListener} installed on a {@link io.rdmatrace.verbs.Context}
 * sees every control-path verb as a {@link io.rdmatrace.verbs.VerbCall} record (inputs, outputs,
 * status, object handles) and every post/poll as the batch itself; it cannot change outcomes.
 *
 * <h2>The data path does not allocate</h2>
 * {@link io.rdmatrace.verbs.SendBatch}, {@link io.rdmatrace.verbs.RecvBatch} and
 * {@link io.rdmatrace.verbs.CompletionBatch} are reusable struct-of-arrays in native memory:
 * fill or read them with indexed accessors; {@code postSend}, {@code postRecv} and {@code poll}
 * allocate nothing.
 *
 * <h2>Example: a SEND between two softverbs devices</h2>
 * <pre>{@code
 * try (Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs())) {
 *     verbs.configureSoftverbs("a@127.0.0.1,b@127.0.0.2");
 *     try (DeviceList list = verbs.getDeviceList();
 *          Context ctx = list.byName("a").open(new MyRecorder());
 *          NativeMemory mem = NativeMemory.allocate(4096);
 *          SendBatch send = new SendBatch(1, 1);
 *          CompletionBatch wcs = new CompletionBatch(16)) {
 *         ProtectionDomain pd = ctx.allocPd();
 *         MemoryRegion mr = pd.regMr(mem, AccessFlag.bits(AccessFlag.LOCAL_WRITE));
 *         CompletionQueue cq = ctx.createCq(16);
 *         QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(16, 16, 1, 1, 0)));
 *         qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(0));
 *         CallStatus st = qp.tryModify(QpAttr.builder().qpState(QpState.RTS).build(),
 *                                      QpAttrMask.of(QpAttrField.STATE));   // EINVAL, as a value
 *         // ... INIT -> RTR (path MTU, dest QPN, RQ PSN, AhAttr.roce(peerGid, sgidIndex, 1)) -> RTS
 *         send.clear().add(1, WrOpcode.SEND, SendFlag.bits(SendFlag.SIGNALED)).sge(mr, 0, 64);
 *         qp.postSend(send);                      // 0 or the errno; send.durationNanos()
 *         int n = cq.poll(wcs);                   // wcs.status(i), wcs.byteLen(i) ...
 *         qp.close(); cq.close(); mr.close(); pd.close();
 *     }
 * }
 * }</pre>
 *
 * <p>Objects are closed children first (QP, then CQ/MR, then PD, then the context);
 * try-with-resources nesting does that. A destroy that libibverbs refuses (EBUSY) leaves the
 * object alive; a verb on a destroyed object throws
 * {@link io.rdmatrace.verbs.ResourceClosedException} instead of passing a freed pointer on.
 */
package io.rdmatrace.verbs;
