//! OpenCL 1.2's C types and the numbers of its error codes, object information queries and
//! flags (Khronos' `CL/cl.h`), as far as this library answers them.

#![allow(non_camel_case_types, missing_docs)]

use std::ffi::c_void;

pub type cl_int = i32;
pub type cl_uint = u32;
pub type cl_ulong = u64;
pub type cl_bool = u32;
pub type cl_bitfield = u64;
pub type cl_platform_id = *mut c_void;
pub type cl_device_id = *mut c_void;
pub type cl_context = *mut c_void;
pub type cl_command_queue = *mut c_void;
pub type cl_mem = *mut c_void;
pub type cl_program = *mut c_void;
pub type cl_kernel = *mut c_void;
pub type cl_event = *mut c_void;
pub type cl_sampler = *mut c_void;

pub const CL_TRUE: cl_bool = 1;
pub const CL_FALSE: cl_bool = 0;

/// Error codes.
pub mod err {
    use super::cl_int;
    pub const SUCCESS: cl_int = 0;
    pub const DEVICE_NOT_FOUND: cl_int = -1;
    pub const DEVICE_NOT_AVAILABLE: cl_int = -2;
    pub const COMPILER_NOT_AVAILABLE: cl_int = -3;
    pub const MEM_OBJECT_ALLOCATION_FAILURE: cl_int = -4;
    pub const OUT_OF_RESOURCES: cl_int = -5;
    pub const OUT_OF_HOST_MEMORY: cl_int = -6;
    pub const PROFILING_INFO_NOT_AVAILABLE: cl_int = -7;
    pub const MEM_COPY_OVERLAP: cl_int = -8;
    pub const BUILD_PROGRAM_FAILURE: cl_int = -11;
    pub const MAP_FAILURE: cl_int = -12;
    pub const MISALIGNED_SUB_BUFFER_OFFSET: cl_int = -13;
    pub const EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: cl_int = -14;
    pub const COMPILE_PROGRAM_FAILURE: cl_int = -15;
    pub const LINK_PROGRAM_FAILURE: cl_int = -17;
    pub const KERNEL_ARG_INFO_NOT_AVAILABLE: cl_int = -19;
    pub const INVALID_VALUE: cl_int = -30;
    pub const INVALID_DEVICE_TYPE: cl_int = -31;
    pub const INVALID_PLATFORM: cl_int = -32;
    pub const INVALID_DEVICE: cl_int = -33;
    pub const INVALID_CONTEXT: cl_int = -34;
    pub const INVALID_QUEUE_PROPERTIES: cl_int = -35;
    pub const INVALID_COMMAND_QUEUE: cl_int = -36;
    pub const INVALID_HOST_PTR: cl_int = -37;
    pub const INVALID_MEM_OBJECT: cl_int = -38;
    pub const INVALID_IMAGE_FORMAT_DESCRIPTOR: cl_int = -39;
    pub const INVALID_IMAGE_SIZE: cl_int = -40;
    pub const INVALID_SAMPLER: cl_int = -41;
    pub const INVALID_BINARY: cl_int = -42;
    pub const INVALID_BUILD_OPTIONS: cl_int = -43;
    pub const INVALID_PROGRAM: cl_int = -44;
    pub const INVALID_PROGRAM_EXECUTABLE: cl_int = -45;
    pub const INVALID_KERNEL_NAME: cl_int = -46;
    pub const INVALID_KERNEL_DEFINITION: cl_int = -47;
    pub const INVALID_KERNEL: cl_int = -48;
    pub const INVALID_ARG_INDEX: cl_int = -49;
    pub const INVALID_ARG_VALUE: cl_int = -50;
    pub const INVALID_ARG_SIZE: cl_int = -51;
    pub const INVALID_KERNEL_ARGS: cl_int = -52;
    pub const INVALID_WORK_DIMENSION: cl_int = -53;
    pub const INVALID_WORK_GROUP_SIZE: cl_int = -54;
    pub const INVALID_WORK_ITEM_SIZE: cl_int = -55;
    pub const INVALID_GLOBAL_OFFSET: cl_int = -56;
    pub const INVALID_EVENT_WAIT_LIST: cl_int = -57;
    pub const INVALID_EVENT: cl_int = -58;
    pub const INVALID_OPERATION: cl_int = -59;
    pub const INVALID_BUFFER_SIZE: cl_int = -61;
    pub const INVALID_GLOBAL_WORK_SIZE: cl_int = -63;
    pub const INVALID_PROPERTY: cl_int = -64;
    pub const INVALID_IMAGE_DESCRIPTOR: cl_int = -65;
    pub const INVALID_COMPILER_OPTIONS: cl_int = -66;
    pub const INVALID_LINKER_OPTIONS: cl_int = -67;
    pub const INVALID_DEVICE_PARTITION_COUNT: cl_int = -68;
    pub const PLATFORM_NOT_FOUND_KHR: cl_int = -1001;
}

/// Platform queries.
pub mod platform {
    pub const PROFILE: u32 = 0x0900;
    pub const VERSION: u32 = 0x0901;
    pub const NAME: u32 = 0x0902;
    pub const VENDOR: u32 = 0x0903;
    pub const EXTENSIONS: u32 = 0x0904;
    pub const ICD_SUFFIX_KHR: u32 = 0x0920;
}

/// Device types.
pub mod device_type {
    pub const DEFAULT: u64 = 1 << 0;
    pub const CPU: u64 = 1 << 1;
    pub const GPU: u64 = 1 << 2;
    pub const ACCELERATOR: u64 = 1 << 3;
    pub const CUSTOM: u64 = 1 << 4;
    pub const ALL: u64 = 0xFFFF_FFFF;
}

/// Device queries.
pub mod device {
    pub const TYPE: u32 = 0x1000;
    pub const VENDOR_ID: u32 = 0x1001;
    pub const MAX_COMPUTE_UNITS: u32 = 0x1002;
    pub const MAX_WORK_ITEM_DIMENSIONS: u32 = 0x1003;
    pub const MAX_WORK_GROUP_SIZE: u32 = 0x1004;
    pub const MAX_WORK_ITEM_SIZES: u32 = 0x1005;
    pub const PREFERRED_VECTOR_WIDTH_CHAR: u32 = 0x1006;
    pub const PREFERRED_VECTOR_WIDTH_SHORT: u32 = 0x1007;
    pub const PREFERRED_VECTOR_WIDTH_INT: u32 = 0x1008;
    pub const PREFERRED_VECTOR_WIDTH_LONG: u32 = 0x1009;
    pub const PREFERRED_VECTOR_WIDTH_FLOAT: u32 = 0x100A;
    pub const PREFERRED_VECTOR_WIDTH_DOUBLE: u32 = 0x100B;
    pub const MAX_CLOCK_FREQUENCY: u32 = 0x100C;
    pub const ADDRESS_BITS: u32 = 0x100D;
    pub const MAX_READ_IMAGE_ARGS: u32 = 0x100E;
    pub const MAX_WRITE_IMAGE_ARGS: u32 = 0x100F;
    pub const MAX_MEM_ALLOC_SIZE: u32 = 0x1010;
    pub const IMAGE2D_MAX_WIDTH: u32 = 0x1011;
    pub const IMAGE2D_MAX_HEIGHT: u32 = 0x1012;
    pub const IMAGE3D_MAX_WIDTH: u32 = 0x1013;
    pub const IMAGE3D_MAX_HEIGHT: u32 = 0x1014;
    pub const IMAGE3D_MAX_DEPTH: u32 = 0x1015;
    pub const IMAGE_SUPPORT: u32 = 0x1016;
    pub const MAX_PARAMETER_SIZE: u32 = 0x1017;
    pub const MAX_SAMPLERS: u32 = 0x1018;
    pub const MEM_BASE_ADDR_ALIGN: u32 = 0x1019;
    pub const MIN_DATA_TYPE_ALIGN_SIZE: u32 = 0x101A;
    pub const SINGLE_FP_CONFIG: u32 = 0x101B;
    pub const GLOBAL_MEM_CACHE_TYPE: u32 = 0x101C;
    pub const GLOBAL_MEM_CACHELINE_SIZE: u32 = 0x101D;
    pub const GLOBAL_MEM_CACHE_SIZE: u32 = 0x101E;
    pub const GLOBAL_MEM_SIZE: u32 = 0x101F;
    pub const MAX_CONSTANT_BUFFER_SIZE: u32 = 0x1020;
    pub const MAX_CONSTANT_ARGS: u32 = 0x1021;
    pub const LOCAL_MEM_TYPE: u32 = 0x1022;
    pub const LOCAL_MEM_SIZE: u32 = 0x1023;
    pub const ERROR_CORRECTION_SUPPORT: u32 = 0x1024;
    pub const PROFILING_TIMER_RESOLUTION: u32 = 0x1025;
    pub const ENDIAN_LITTLE: u32 = 0x1026;
    pub const AVAILABLE: u32 = 0x1027;
    pub const COMPILER_AVAILABLE: u32 = 0x1028;
    pub const EXECUTION_CAPABILITIES: u32 = 0x1029;
    pub const QUEUE_PROPERTIES: u32 = 0x102A;
    pub const NAME: u32 = 0x102B;
    pub const VENDOR: u32 = 0x102C;
    pub const DRIVER_VERSION: u32 = 0x102D;
    pub const PROFILE: u32 = 0x102E;
    pub const VERSION: u32 = 0x102F;
    pub const EXTENSIONS: u32 = 0x1030;
    pub const PLATFORM: u32 = 0x1031;
    pub const DOUBLE_FP_CONFIG: u32 = 0x1032;
    pub const HALF_FP_CONFIG: u32 = 0x1033;
    pub const PREFERRED_VECTOR_WIDTH_HALF: u32 = 0x1034;
    pub const HOST_UNIFIED_MEMORY: u32 = 0x1035;
    pub const NATIVE_VECTOR_WIDTH_CHAR: u32 = 0x1036;
    pub const NATIVE_VECTOR_WIDTH_SHORT: u32 = 0x1037;
    pub const NATIVE_VECTOR_WIDTH_INT: u32 = 0x1038;
    pub const NATIVE_VECTOR_WIDTH_LONG: u32 = 0x1039;
    pub const NATIVE_VECTOR_WIDTH_FLOAT: u32 = 0x103A;
    pub const NATIVE_VECTOR_WIDTH_DOUBLE: u32 = 0x103B;
    pub const NATIVE_VECTOR_WIDTH_HALF: u32 = 0x103C;
    pub const OPENCL_C_VERSION: u32 = 0x103D;
    pub const LINKER_AVAILABLE: u32 = 0x103E;
    pub const BUILT_IN_KERNELS: u32 = 0x103F;
    pub const IMAGE_MAX_BUFFER_SIZE: u32 = 0x1040;
    pub const IMAGE_MAX_ARRAY_SIZE: u32 = 0x1041;
    pub const PARENT_DEVICE: u32 = 0x1042;
    pub const PARTITION_MAX_SUB_DEVICES: u32 = 0x1043;
    pub const PARTITION_PROPERTIES: u32 = 0x1044;
    pub const PARTITION_AFFINITY_DOMAIN: u32 = 0x1045;
    pub const PARTITION_TYPE: u32 = 0x1046;
    pub const REFERENCE_COUNT: u32 = 0x1047;
    pub const PREFERRED_INTEROP_USER_SYNC: u32 = 0x1048;
    pub const PRINTF_BUFFER_SIZE: u32 = 0x1049;
}

/// `cl_device_fp_config` bits.
pub mod fp {
    pub const DENORM: u64 = 1 << 0;
    pub const INF_NAN: u64 = 1 << 1;
    pub const ROUND_TO_NEAREST: u64 = 1 << 2;
    pub const ROUND_TO_ZERO: u64 = 1 << 3;
    pub const ROUND_TO_INF: u64 = 1 << 4;
    pub const FMA: u64 = 1 << 5;
    pub const CORRECTLY_ROUNDED_DIVIDE_SQRT: u64 = 1 << 7;
}

/// Context queries and properties.
pub mod context {
    pub const REFERENCE_COUNT: u32 = 0x1080;
    pub const DEVICES: u32 = 0x1081;
    pub const PROPERTIES: u32 = 0x1082;
    pub const NUM_DEVICES: u32 = 0x1083;
    pub const PLATFORM: isize = 0x1084;
    pub const INTEROP_USER_SYNC: isize = 0x1085;
}

/// Command-queue properties and queries.
pub mod queue {
    pub const OUT_OF_ORDER_EXEC_MODE_ENABLE: u64 = 1 << 0;
    pub const PROFILING_ENABLE: u64 = 1 << 1;
    pub const CONTEXT: u32 = 0x1090;
    pub const DEVICE: u32 = 0x1091;
    pub const REFERENCE_COUNT: u32 = 0x1092;
    pub const PROPERTIES: u32 = 0x1093;
}

/// Memory flags, object types and queries.
pub mod mem {
    pub const READ_WRITE: u64 = 1 << 0;
    pub const WRITE_ONLY: u64 = 1 << 1;
    pub const READ_ONLY: u64 = 1 << 2;
    pub const USE_HOST_PTR: u64 = 1 << 3;
    pub const ALLOC_HOST_PTR: u64 = 1 << 4;
    pub const COPY_HOST_PTR: u64 = 1 << 5;
    pub const HOST_WRITE_ONLY: u64 = 1 << 7;
    pub const HOST_READ_ONLY: u64 = 1 << 8;
    pub const HOST_NO_ACCESS: u64 = 1 << 9;
    pub const OBJECT_BUFFER: u32 = 0x10F0;
    pub const TYPE: u32 = 0x1100;
    pub const FLAGS: u32 = 0x1101;
    pub const SIZE: u32 = 0x1102;
    pub const HOST_PTR: u32 = 0x1103;
    pub const MAP_COUNT: u32 = 0x1104;
    pub const REFERENCE_COUNT: u32 = 0x1105;
    pub const CONTEXT: u32 = 0x1106;
    pub const ASSOCIATED_MEMOBJECT: u32 = 0x1107;
    pub const OFFSET: u32 = 0x1108;
    pub const BUFFER_CREATE_TYPE_REGION: u32 = 0x1220;
    pub const MAP_READ: u64 = 1 << 0;
    pub const MAP_WRITE: u64 = 1 << 1;
    pub const MAP_WRITE_INVALIDATE_REGION: u64 = 1 << 2;
    pub const MIGRATE_MEM_OBJECT_HOST: u64 = 1 << 0;
    pub const MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED: u64 = 1 << 1;
}

/// Program queries.
pub mod program {
    pub const REFERENCE_COUNT: u32 = 0x1160;
    pub const CONTEXT: u32 = 0x1161;
    pub const NUM_DEVICES: u32 = 0x1162;
    pub const DEVICES: u32 = 0x1163;
    pub const SOURCE: u32 = 0x1164;
    pub const BINARY_SIZES: u32 = 0x1165;
    pub const BINARIES: u32 = 0x1166;
    pub const NUM_KERNELS: u32 = 0x1167;
    pub const KERNEL_NAMES: u32 = 0x1168;
    pub const BUILD_STATUS: u32 = 0x1181;
    pub const BUILD_OPTIONS: u32 = 0x1182;
    pub const BUILD_LOG: u32 = 0x1183;
    pub const BINARY_TYPE: u32 = 0x1184;
    pub const BINARY_TYPE_NONE: u32 = 0x0;
    pub const BINARY_TYPE_EXECUTABLE: u32 = 0x4;
    pub const BUILD_SUCCESS: i32 = 0;
    pub const BUILD_NONE: i32 = -1;
    pub const BUILD_ERROR: i32 = -2;
    pub const BUILD_IN_PROGRESS: i32 = -3;
}

/// Kernel queries.
pub mod kernel {
    pub const FUNCTION_NAME: u32 = 0x1190;
    pub const NUM_ARGS: u32 = 0x1191;
    pub const REFERENCE_COUNT: u32 = 0x1192;
    pub const CONTEXT: u32 = 0x1193;
    pub const PROGRAM: u32 = 0x1194;
    pub const ATTRIBUTES: u32 = 0x1195;
    pub const ARG_ADDRESS_QUALIFIER: u32 = 0x1196;
    pub const ARG_ACCESS_QUALIFIER: u32 = 0x1197;
    pub const ARG_TYPE_NAME: u32 = 0x1198;
    pub const ARG_TYPE_QUALIFIER: u32 = 0x1199;
    pub const ARG_NAME: u32 = 0x119A;
    pub const ARG_ADDRESS_GLOBAL: u32 = 0x119B;
    pub const ARG_ADDRESS_LOCAL: u32 = 0x119C;
    pub const ARG_ADDRESS_CONSTANT: u32 = 0x119D;
    pub const ARG_ADDRESS_PRIVATE: u32 = 0x119E;
    pub const ARG_ACCESS_READ_ONLY: u32 = 0x11A0;
    pub const ARG_ACCESS_WRITE_ONLY: u32 = 0x11A1;
    pub const ARG_ACCESS_READ_WRITE: u32 = 0x11A2;
    pub const ARG_ACCESS_NONE: u32 = 0x11A3;
    pub const ARG_TYPE_NONE: u64 = 0;
    pub const ARG_TYPE_CONST: u64 = 1 << 0;
    pub const ARG_TYPE_RESTRICT: u64 = 1 << 1;
    pub const ARG_TYPE_VOLATILE: u64 = 1 << 2;
    pub const WORK_GROUP_SIZE: u32 = 0x11B0;
    pub const COMPILE_WORK_GROUP_SIZE: u32 = 0x11B1;
    pub const LOCAL_MEM_SIZE: u32 = 0x11B2;
    pub const PREFERRED_WORK_GROUP_SIZE_MULTIPLE: u32 = 0x11B3;
    pub const PRIVATE_MEM_SIZE: u32 = 0x11B4;
    pub const GLOBAL_WORK_SIZE: u32 = 0x11B5;
}

/// Event queries, statuses and command types.
pub mod event {
    pub const COMMAND_QUEUE: u32 = 0x11D0;
    pub const COMMAND_TYPE: u32 = 0x11D1;
    pub const REFERENCE_COUNT: u32 = 0x11D2;
    pub const COMMAND_EXECUTION_STATUS: u32 = 0x11D3;
    pub const CONTEXT: u32 = 0x11D4;
    pub const COMPLETE: i32 = 0x0;
    pub const RUNNING: i32 = 0x1;
    pub const SUBMITTED: i32 = 0x2;
    pub const QUEUED: i32 = 0x3;
    pub const PROFILING_COMMAND_QUEUED: u32 = 0x1280;
    pub const PROFILING_COMMAND_SUBMIT: u32 = 0x1281;
    pub const PROFILING_COMMAND_START: u32 = 0x1282;
    pub const PROFILING_COMMAND_END: u32 = 0x1283;
}

/// `cl_command_type` values.
pub mod command {
    pub const NDRANGE_KERNEL: u32 = 0x11F0;
    pub const TASK: u32 = 0x11F1;
    pub const NATIVE_KERNEL: u32 = 0x11F2;
    pub const READ_BUFFER: u32 = 0x11F3;
    pub const WRITE_BUFFER: u32 = 0x11F4;
    pub const COPY_BUFFER: u32 = 0x11F5;
    pub const MAP_BUFFER: u32 = 0x11FB;
    pub const UNMAP_MEM_OBJECT: u32 = 0x11FD;
    pub const MARKER: u32 = 0x11FE;
    pub const READ_BUFFER_RECT: u32 = 0x1201;
    pub const WRITE_BUFFER_RECT: u32 = 0x1202;
    pub const COPY_BUFFER_RECT: u32 = 0x1203;
    pub const USER: u32 = 0x1204;
    pub const BARRIER: u32 = 0x1205;
    pub const MIGRATE_MEM_OBJECTS: u32 = 0x1206;
    pub const FILL_BUFFER: u32 = 0x1207;
}
