package com.acme.orders;

public record Payment(String order, long cents) {
}
