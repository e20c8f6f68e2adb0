package org.dyper.samples.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BankFactsTest {
    private static final int T = BankApp.DEFAULT_THREADS;
    private static final int P = BankApp.DEFAULT_TRANSFERS_PER_THREAD;

    /** The literals pin the sequence: a change to {@link Plan} or the fees must show up here. */
    @Test
    void defaultConstantsMatchTheReplay() {
        assertEquals(BankFacts.DEFAULT_TRANSFER_CALLS, BankFacts.transferCalls(T, P));
        assertEquals(BankFacts.DEFAULT_FAILED_TRANSFERS, BankFacts.failedTransfers(T, P));
        assertEquals(BankFacts.DEFAULT_AUDIT_CALLS, BankFacts.auditCalls(T, P));
        assertEquals(BankFacts.DEFAULT_FEE_SUM, BankFacts.feeSum(T, P));
        assertEquals(BankFacts.DEFAULT_FEE_RETURN_SUM, BankFacts.feeReturnSum(T, P));
        assertEquals(BankFacts.DEFAULT_CHECKSUM, BankFacts.checksum(T, P));
        assertEquals(9_880, BankFacts.depositCalls(T, P));
        assertEquals(10_000, BankFacts.withdrawCalls(T, P));
        assertEquals(10_000, BankFacts.feeCalls(T, P));
    }

    /** Failures are exactly the planted transfers: drawn amount a multiple of 97, nothing else. */
    @ParameterizedTest
    @CsvSource({"4, 2500", "8, 1000", "3, 77"})
    void failuresAreExactlyThePlantedOnes(int threads, int perThread) {
        long planted = 0;
        for (int w = 0; w < threads; w++) {
            Plan plan = new Plan(w);
            for (int i = 0; i < perThread; i++) {
                plan.next();
                if (plan.plantedFailure()) {
                    planted++;
                    assertEquals(0, (plan.amount() - Bank.INITIAL_TOTAL) % Plan.FAIL_EVERY_MULTIPLE_OF);
                }
            }
        }
        assertEquals(planted, BankFacts.failedTransfers(threads, perThread));
    }

    @Test
    void feeTwinMatchesTheBank() {
        Bank bank = new Bank();
        for (long amount = 0; amount < 2_000; amount++) {
            assertEquals(bank.fee(amount), BankFacts.fee(amount), "fee(" + amount + ")");
        }
        assertEquals(bank.fee(Bank.INITIAL_TOTAL + 97), BankFacts.fee(Bank.INITIAL_TOTAL + 97));
    }

    @Test
    void transferFailsWithoutMovingMoney() throws Exception {
        Bank bank = new Bank();
        InsufficientFundsException e = assertThrows(InsufficientFundsException.class,
                () -> bank.transfer(3, 5, Bank.INITIAL_BALANCE + 1));
        assertEquals(3, e.accountId());
        assertEquals(Bank.INITIAL_BALANCE, bank.balances()[3]);
        assertEquals(Bank.INITIAL_BALANCE, bank.balances()[5]);
        assertEquals(Bank.INITIAL_BALANCE - 250, bank.transfer(5, 3, 250));
        assertEquals(Bank.INITIAL_BALANCE + 250 - 3, bank.balances()[3]);
        assertEquals(3, bank.feesCollected());
    }
}
