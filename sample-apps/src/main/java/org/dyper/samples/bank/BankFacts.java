package org.dyper.samples.bank;

import java.util.Arrays;
import java.util.List;

/**
 * The exact behaviour of {@link BankApp} for given {@code threads} and {@code transfersPerThread},
 * computed by arithmetic or by replaying the workers' deterministic sequences on one thread, without
 * running the bank. Call counts are per method over the whole run, all threads together; site names
 * are as Dyper reports them ({@code class.method(parameter types)}).
 */
public final class BankFacts {
    public static final String BANK = "org.dyper.samples.bank.Bank";
    public static final String ACCOUNT = "org.dyper.samples.bank.Account";
    public static final String TRANSFER = BANK + ".transfer(int,int,long)";
    public static final String FEE = BANK + ".fee(long)";
    public static final String AUDIT = BANK + ".audit()";
    public static final String WITHDRAW = ACCOUNT + ".withdraw(long)";
    public static final String DEPOSIT = ACCOUNT + ".deposit(long)";
    public static final String ACCOUNT_INIT = ACCOUNT + ".<init>(int,long)";
    public static final String BANK_INIT = BANK + ".<init>()";

    /** {@link #transferCalls} with the default arguments (4 x 2500). */
    public static final long DEFAULT_TRANSFER_CALLS = 10_000;
    /** {@link #failedTransfers} with the default arguments. */
    public static final long DEFAULT_FAILED_TRANSFERS = 120;
    /** {@link #auditCalls} with the default arguments. */
    public static final long DEFAULT_AUDIT_CALLS = 200;
    /** {@link #feeSum} with the default arguments. */
    public static final long DEFAULT_FEE_SUM = 54_377;
    /** {@link #feeReturnSum} with the default arguments. */
    public static final long DEFAULT_FEE_RETURN_SUM = 55_577;
    /** {@link #checksum} with the default arguments. */
    public static final long DEFAULT_CHECKSUM = 0x60e7_2046_a29e_9e96L;

    private BankFacts() {
    }

    /** Calls of {@code Bank.transfer}, failed ones included. */
    public static long transferCalls(int threads, int perThread) {
        return (long) threads * perThread;
    }

    /** Calls of {@code Bank.fee}: one per transfer, made before the transfer can fail. */
    public static long feeCalls(int threads, int perThread) {
        return transferCalls(threads, perThread);
    }

    /** Calls of {@code Account.withdraw}: one per transfer; it is what throws for a failing one. */
    public static long withdrawCalls(int threads, int perThread) {
        return transferCalls(threads, perThread);
    }

    /** Calls of {@code Account.deposit}: one per successful transfer. */
    public static long depositCalls(int threads, int perThread) {
        return transferCalls(threads, perThread) - failedTransfers(threads, perThread);
    }

    /** Calls of {@code Bank.audit}: each worker audits after every {@value BankApp#AUDIT_EVERY} transfers. */
    public static long auditCalls(int threads, int perThread) {
        return (long) threads * (perThread / BankApp.AUDIT_EVERY);
    }

    /** Calls of the {@code Account} constructor (and {@code Bank}'s is called once). */
    public static long accountConstructorCalls() {
        return Bank.ACCOUNTS;
    }

    /** Transfers (and so {@code InsufficientFundsException}s thrown and caught): the planted ones. */
    public static long failedTransfers(int threads, int perThread) {
        return replay(threads, perThread).failed;
    }

    public static long succeededTransfers(int threads, int perThread) {
        return transferCalls(threads, perThread) - failedTransfers(threads, perThread);
    }

    /** The sum of {@code Bank.fee}'s results over successful transfers: the fees the bank keeps. */
    public static long feeSum(int threads, int perThread) {
        return replay(threads, perThread).fees;
    }

    /** The sum of {@code Bank.fee}'s results over all its calls, failed transfers included. */
    public static long feeReturnSum(int threads, int perThread) {
        return replay(threads, perThread).feeReturns;
    }

    /** The checksum of the final balances that {@link BankApp} prints (as hex). */
    public static long checksum(int threads, int perThread) {
        return Bank.checksum(replay(threads, perThread).balances);
    }

    /** The lines {@link BankApp} prints to stdout, in order. */
    public static List<String> expectedOutput(int threads, int perThread) {
        Replay r = replay(threads, perThread);
        return BankApp.report(threads, perThread, transferCalls(threads, perThread) - r.failed, r.failed, r.fees,
                Bank.INITIAL_TOTAL, Bank.checksum(r.balances));
    }

    private static Replay replay(int threads, int perThread) {
        Replay r = new Replay();
        for (int worker = 0; worker < threads; worker++) {
            Plan plan = new Plan(worker);
            for (int i = 0; i < perThread; i++) {
                plan.next();
                int fee = fee(plan.amount());
                r.feeReturns += fee;
                if (plan.amount() > r.balances[plan.from()]) {
                    r.failed++;
                    continue;
                }
                r.balances[plan.from()] -= plan.amount();
                r.balances[plan.to()] += plan.amount() - fee;
                r.fees += fee;
            }
        }
        return r;
    }

    /** A twin of {@link Bank#fee(long)}, so the replay does not create a bank (tests keep them equal). */
    static int fee(long amount) {
        return (int) Math.min(Bank.MAX_FEE, 1 + amount / 100);
    }

    private static final class Replay {
        final long[] balances = new long[Bank.ACCOUNTS];
        long failed;
        long fees;
        long feeReturns;

        Replay() {
            Arrays.fill(balances, Bank.INITIAL_BALANCE);
        }
    }
}
