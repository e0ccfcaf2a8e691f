package com.acme.orders;

public class PaymentDeclinedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
}
