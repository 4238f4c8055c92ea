# Asks for a huge fill.
    .data
    .fill 0x40000000, 8, 1
