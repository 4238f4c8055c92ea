# Asks for 2 GiB of zeros.
    .data
    .space 0x7fffffff
