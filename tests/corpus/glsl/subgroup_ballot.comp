#version 450
// args: --target-env vulkan1.1
// Stream compaction with ballots, votes and shuffles.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { vec4 items[]; };
layout(std430, binding = 1) buffer Out { uint count; vec4 kept[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    vec4 item = items[gid];
    bool keep = item.w > 0.5;

    uvec4 ballot = subgroupBallot(keep);
    uint total = subgroupBallotBitCount(ballot);
    uint offset = subgroupBallotExclusiveBitCount(ballot);
    uint base = 0u;
    if (subgroupElect()) {
        base = atomicAdd(count, total);
    }
    base = subgroupBroadcastFirst(base);
    if (keep) {
        kept[base + offset] = item;
    }
    if (subgroupAll(keep) || subgroupAny(!keep) || subgroupAllEqual(item.x)) {
        float neighbour = subgroupShuffle(item.x, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
        float swapped = subgroupShuffleXor(item.y, 1u);
        uint first = subgroupBallotFindLSB(ballot);
        uint last = subgroupBallotFindMSB(ballot);
        bool mine = subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID);
        bool inv = subgroupInverseBallot(ballot);
        float b0 = subgroupBroadcast(item.z, 0u);
        if (mine && inv && gl_SubgroupEqMask.x != 0u && (gl_SubgroupLtMask.x & gl_SubgroupGtMask.x) == 0u
            && (gl_SubgroupLeMask.x | gl_SubgroupGeMask.x) != 0u) {
            kept[gid].x = neighbour + swapped + float(first + last) + b0;
        }
    }
}
