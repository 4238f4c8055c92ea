/* y = a x + y, one work-item per element, and a work-group sum of the result in __local
 * memory (a barrier per step: the work-group is larger than a weft core's threads). */
__kernel void saxpy(__global const float *x, __global float *y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void group_sums(__global const float *y, __global float *sums, __local float *tmp) {
    size_t l = get_local_id(0);
    tmp[l] = y[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) sums[get_group_id(0)] = tmp[0];
}
